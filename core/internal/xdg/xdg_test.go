package xdg

import (
	"errors"
	"path/filepath"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDirs(t *testing.T) {
	funcs := []struct {
		name string
		fn   func(func(string) string) (string, error)
		env  string
		def  string // default under HOME
	}{
		{"ConfigDir", ConfigDir, "XDG_CONFIG_HOME", ".config"},
		{"DataDir", DataDir, "XDG_DATA_HOME", ".local/share"},
		{"CacheDir", CacheDir, "XDG_CACHE_HOME", ".cache"},
		{"StateDir", StateDir, "XDG_STATE_HOME", ".local/state"},
	}
	for _, f := range funcs {
		tests := []struct {
			name    string
			env     map[string]string
			want    string
			wantErr error
		}{
			{"absolute variable wins", map[string]string{"HOME": "/h", f.env: "/x"}, "/x/vaultctx", nil},
			{"absolute variable without HOME", map[string]string{f.env: "/x"}, "/x/vaultctx", nil},
			{"default under HOME", map[string]string{"HOME": "/h"}, filepath.Join("/h", f.def, "vaultctx"), nil},
			{"empty variable ignored", map[string]string{"HOME": "/h", f.env: ""}, filepath.Join("/h", f.def, "vaultctx"), nil},
			{"relative variable ignored", map[string]string{"HOME": "/h", f.env: "rel/dir"}, filepath.Join("/h", f.def, "vaultctx"), nil},
			{"dot variable ignored", map[string]string{"HOME": "/h", f.env: "./x"}, filepath.Join("/h", f.def, "vaultctx"), nil},
			{"neither set", map[string]string{}, "", ErrNoHome},
			{"relative variable, no HOME", map[string]string{f.env: "x"}, "", ErrNoHome},
		}
		for _, tt := range tests {
			t.Run(f.name+"/"+tt.name, func(t *testing.T) {
				got, err := f.fn(env(tt.env))
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				if got != tt.want {
					t.Errorf("got %q, want %q", got, tt.want)
				}
				if err != nil && got != "" {
					t.Errorf("got %q with an error, want \"\"", got)
				}
			})
		}
	}
}

func TestHome(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		goos    string
		want    string
		wantErr error
	}{
		{"HOME", map[string]string{"HOME": "/h"}, "linux", "/h", nil},
		{"HOME over USERPROFILE", map[string]string{"HOME": "/h", "USERPROFILE": `C:\u`}, "windows", "/h", nil},
		{"USERPROFILE on windows", map[string]string{"USERPROFILE": `C:\u`}, "windows", `C:\u`, nil},
		{"USERPROFILE ignored elsewhere", map[string]string{"USERPROFILE": `C:\u`}, "darwin", "", ErrNoHome},
		{"nothing", map[string]string{}, "linux", "", ErrNoHome},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := home(env(tt.env), tt.goos)
			if !errors.Is(err, tt.wantErr) || got != tt.want {
				t.Errorf("home = %q, %v; want %q, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestErrorNamesVariable(t *testing.T) {
	_, err := StateDir(env(nil))
	if err == nil || err.Error() != "XDG_STATE_HOME unset or relative: no home folder: HOME is unset" {
		t.Errorf("err = %v", err)
	}
}
