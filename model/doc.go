// Package model is chuzero's policy/value network: its architecture, the
// Gorgonia training graph, fast batched inference for the search, weights
// I/O through the checkpoints package, and the benchmarks behind
// "chuzero bench".
//
// # Architecture
//
// Input planes (encode.Spec) -> 3x3 convolution -> batch norm -> ReLU ->
// Blocks residual blocks (3x3 conv, BN, ReLU, [global-pooling bias in
// every GlobalPoolEvery-th block], 3x3 conv, BN, + skip, ReLU) -> two heads:
//
//   - policy: 1x1 conv -> BN -> ReLU -> h; 1x1 conv with bias to the spec's
//     move-type planes over squares (no dense layer over the board); the pass
//     logit is a dense layer of h's board average;
//   - value: 1x1 conv -> BN -> ReLU -> [mean, max] over the board -> dense ->
//     ReLU -> dense to three logits: win, draw, loss for the side to move.
//
// Presets: tiny 2x16 (tests), small 6x64 (the CPU default), medium 10x128,
// large 15x192.
//
// Normalisation is batch normalisation: it trains stably at the batch
// sizes used (256 by default). Its running statistics are tensors of the
// network (saved in checkpoints) and are used at inference, folded into the
// preceding convolution (W*gamma/sqrt(var+eps), beta-mean*gamma/sqrt(var+eps)).
//
// # Training
//
// Trainer builds one Gorgonia graph for its batch size. Its nodes are
// custom ops (fnOp) for the stem, each residual block, each head and the
// loss; Gorgonia differentiates the graph symbolically (each op's SymDiff
// builds its backward node) and runs forward and backward on a
// TapeMachine. The ops do their arithmetic in NHWC on buffers allocated
// once, with im2col + GEMM convolutions parallel over the batch, so a step
// allocates almost nothing (Gorgonia's own Conv2d/BatchNorm allocate about
// 17 MB per position and run at under a tenth of the machine's peak). The
// loss is the policy cross-entropy against the search's distribution over
// the legal moves (softmax restricted to them), plus the value
// cross-entropy on win/draw/loss, plus c*sum(w^2) over weights; the
// optimizer (Adam or SGD with momentum, learning rate per step, global
// gradient-norm clipping) is written here and its state is saved in
// checkpoints for an exact resume.
//
// # Inference
//
// Net is the same function with batch norm folded, run directly on the
// kernels; Batcher groups requests (eval.Request) from many goroutines
// into batches and satisfies the search's Evaluator interface. Reference is
// the same network written with Gorgonia's built-in operations; tests
// check that Net and the training graph's forward pass match it within
// 1e-4 relative error for every preset.
//
// # BLAS
//
// Matrix multiplies go through one function (gemm.go). The default build
// uses a pure-Go kernel; "go build -tags openblas" (Debian: apt-get install
// libopenblas-dev) uses OpenBLAS through cgo, one thread per call.
//
// # GPU
//
// Nothing here assumes a CPU beyond the gemm and kernel functions and the
// fnOp Do methods. Gorgonia's CUDA backend needs the CUDA toolkit and the
// cuda build tag, which this machine lacks; enabling it would mean adding
// CUDADo methods to the custom ops (cuBLAS GEMMs, cuDNN convolution and
// batch norm) and keeping buffers on the device, or running the Reference
// graph, whose built-in ops have CUDA kernels, for inference.
package model
