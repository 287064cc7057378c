package web

import (
	"strconv"

	"chuzero/rules"
)

// kanji gives each piece of each variant its traditional name and the one
// character a board diagram shows, keyed by variant name and FEN spelling
// ("K", "+D"). The names follow the Japanese tradition (chu-shogi.md,
// sho-shogi.md, heian-dai-shogi.md name the pieces in English).
var kanji = map[string]map[string][2]string{
	"chu": {
		"K": {"玉", "玉将"}, "Q": {"奔", "奔王"}, "N": {"獅", "獅子"}, "D": {"龍", "龍王"},
		"H": {"馬", "龍馬"}, "R": {"飛", "飛車"}, "B": {"角", "角行"}, "V": {"竪", "竪行"},
		"M": {"横", "横行"}, "A": {"反", "反車"}, "L": {"香", "香車"}, "O": {"麒", "麒麟"},
		"X": {"鳳", "鳳凰"}, "E": {"象", "酔象"}, "T": {"虎", "盲虎"}, "F": {"豹", "猛豹"},
		"G": {"金", "金将"}, "S": {"銀", "銀将"}, "C": {"銅", "銅将"}, "I": {"仲", "仲人"},
		"P":  {"歩", "歩兵"},
		"+D": {"鷲", "飛鷲"}, "+H": {"鷹", "角鷹"}, "+R": {"龍", "龍王"}, "+B": {"馬", "龍馬"},
		"+V": {"牛", "飛牛"}, "+M": {"猪", "奔猪"}, "+A": {"鯨", "鯨鯢"}, "+L": {"駒", "白駒"},
		"+O": {"獅", "獅子"}, "+X": {"奔", "奔王"}, "+E": {"太", "太子"}, "+T": {"鹿", "飛鹿"},
		"+F": {"角", "角行"}, "+G": {"飛", "飛車"}, "+S": {"竪", "竪行"}, "+C": {"横", "横行"},
		"+I": {"象", "酔象"}, "+P": {"と", "と金"},
	},
	"sho": {
		"K": {"玉", "玉将"}, "R": {"飛", "飛車"}, "B": {"角", "角行"}, "E": {"象", "酔象"},
		"G": {"金", "金将"}, "S": {"銀", "銀将"}, "N": {"桂", "桂馬"}, "L": {"香", "香車"},
		"P":  {"歩", "歩兵"},
		"+R": {"龍", "龍王"}, "+B": {"馬", "龍馬"}, "+E": {"太", "太子"}, "+S": {"全", "成銀"},
		"+N": {"圭", "成桂"}, "+L": {"杏", "成香"}, "+P": {"と", "と金"},
	},
	"heian": {
		"K": {"玉", "玉将"}, "G": {"金", "金将"}, "S": {"銀", "銀将"}, "C": {"銅", "銅将"},
		"I": {"鉄", "鉄将"}, "N": {"桂", "桂馬"}, "L": {"香", "香車"}, "T": {"虎", "猛虎"},
		"D": {"龍", "飛龍"}, "A": {"車", "奔車"}, "M": {"横", "横行"}, "B": {"注", "注人"},
		"P":  {"歩", "歩兵"},
		"+S": {"金", "成銀"}, "+C": {"金", "成銅"}, "+I": {"金", "成鉄"}, "+N": {"金", "成桂"},
		"+L": {"金", "成香"}, "+T": {"金", "成虎"}, "+D": {"金", "成龍"}, "+A": {"金", "成車"},
		"+M": {"金", "成横"}, "+B": {"金", "成注"}, "+P": {"と", "と金"},
	},
}

// PieceInfo is how the board draws one kind of piece.
type PieceInfo struct {
	Kanji    string `json:"kanji"`    // one character, as on a diagram ("獅")
	Name     string `json:"name"`     // the traditional name ("獅子")
	English  string `json:"english"`  // the rules' English name ("Lion")
	Latin    string `json:"latin"`    // the Hodges abbreviation ("Ln", "+DH")
	Promoted bool   `json:"promoted"` // drawn in red
	Royal    bool   `json:"royal,omitempty"`
}

// Board is the shape of a variant's board and its pieces, for the pages'
// scripts. Squares are listed row by row from the top as Sente sees the
// board (Gote's side), left to right: index row*Files + col.
type Board struct {
	Variant    string               `json:"variant"`
	Files      int                  `json:"files"`
	Ranks      int                  `json:"ranks"`
	Zone       int                  `json:"zone"`        // promotion zone depth: the top Zone rows are Sente's, the bottom Gote's
	FileLabels []string             `json:"file_labels"` // USI file numbers, left to right ("12" ... "1")
	RankLabels []string             `json:"rank_labels"` // USI rank letters, top to bottom ("a" ...)
	Pieces     map[string]PieceInfo `json:"pieces"`      // by FEN spelling in upper case ("K", "+D")
}

// newBoard describes the board of r.
func newBoard(r *rules.Rules) Board {
	v := r.Variant()
	b := Board{Variant: v.Name, Files: r.Files(), Ranks: r.Ranks(), Zone: v.ZoneDepth, Pieces: map[string]PieceInfo{}}
	for c := 0; c < b.Files; c++ {
		b.FileLabels = append(b.FileLabels, strconv.Itoa(b.Files-c))
	}
	for row := 0; row < b.Ranks; row++ {
		b.RankLabels = append(b.RankLabels, string(rune('a'+row)))
	}
	for k := 1; k <= r.NumKinds(); k++ {
		pc := rules.MakePiece(rules.Kind(k), rules.Sente)
		d := r.KindDef(rules.Kind(k))
		code := r.PieceString(pc)
		names := kanji[v.Name][code]
		b.Pieces[code] = PieceInfo{Kanji: names[0], Name: names[1], English: d.Name, Latin: r.HodgesName(pc),
			Promoted: d.Promoted, Royal: d.Royal}
	}
	return b
}

// displayIndex is the index of square s in a Board's square list.
func displayIndex(r *rules.Rules, s rules.Square) int {
	return (r.Ranks()-1-s.Rank())*r.Files() + s.File()
}

// squares lists the pieces of p in display order: the FEN spelling, upper
// case for Sente and lower case for Gote ("K", "+d"), "" for an empty
// square.
func squares(p *rules.Position) []string {
	r := p.Rules()
	out := make([]string, r.NumSquares())
	for _, s := range r.Squares() {
		if pc := p.At(s); pc.IsPiece() {
			out[displayIndex(r, s)] = r.PieceString(pc)
		}
	}
	return out
}
