module chuzero

go 1.26.8
