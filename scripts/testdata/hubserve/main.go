// Command hubserve is a stand-in for the Hugging Face hub in
// scripts/install_test.sh: it serves the folder ROOT over HTTP on
// 127.0.0.1 (a file ROOT/<name>/resolve/<revision>/<file> answers the URL
// `vaultctx model pull` asks for), with Range support, and writes its base
// URL to the file URLFILE once it listens. It serves until killed.
//
//	hubserve ROOT URLFILE
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: hubserve ROOT URLFILE")
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "hubserve:", err)
		os.Exit(1)
	}
	url := "http://" + ln.Addr().String()
	// Written whole, then renamed: the test waits for the file.
	tmp := os.Args[2] + ".tmp"
	err = os.WriteFile(tmp, []byte(url+"\n"), 0o644)
	if err == nil {
		err = os.Rename(tmp, os.Args[2])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "hubserve:", err)
		os.Exit(1)
	}
	fmt.Fprintln(os.Stderr, "hubserve:", http.Serve(ln, http.FileServer(http.Dir(os.Args[1]))))
	os.Exit(1)
}
