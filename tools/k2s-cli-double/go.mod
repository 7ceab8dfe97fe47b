module k2s-dns/tools/k2s-cli-double

go 1.24
