package exercises

import "embed"

// module holds the go.mod and go.sum of a learner's workspace, the Go
// module `wirelab init` writes: module "exercises", with the published
// modules the starters import (gRPC and protobuf, for grpc-server) and
// the checksums that let it build on a machine that has never seen them.
//
// To change them, edit workspace.mod, then run go mod tidy in a copy of a
// workspace and bring its go.mod and go.sum back; TestWorkspaceModule
// keeps the versions equal to this repository's.
//
//go:embed workspace.mod workspace.sum
var module embed.FS

// ModuleFiles returns the go.mod and go.sum of a learner's workspace.
func ModuleFiles() (gomod, gosum []byte) {
	gomod, _ = module.ReadFile("workspace.mod")
	gosum, _ = module.ReadFile("workspace.sum")
	return gomod, gosum
}
