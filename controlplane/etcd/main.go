// Command etcd is the etcd server, built from the published go.etcd.io/etcd/server/v3
// module. The upstream main package lives in a module with relative replace directives,
// which `go install` refuses, so this wrapper calls the same entry point.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
