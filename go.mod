module github.com/vaultctx/vaultctx

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/adrg/frontmatter v0.2.0
	github.com/alecthomas/kong v1.17.0
	github.com/asg017/sqlite-vec-go-bindings v0.1.6
	github.com/fsnotify/fsnotify v1.10.1
	github.com/mattn/go-sqlite3 v1.14.53
	github.com/tidwall/gjson v1.20.2
	github.com/yuin/goldmark v1.8.7
	golang.org/x/sys v0.50.0
	golang.org/x/term v0.48.0
	golang.org/x/text v0.44.0
)

require (
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
	gopkg.in/yaml.v2 v2.3.0 // indirect
)
