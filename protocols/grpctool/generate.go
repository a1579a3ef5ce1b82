package grpctool

// The Go code in tools/v1 is generated from tools/v1/tools.proto and
// committed. Regenerate it after editing the contract with
//
//	go generate ./protocols/grpctool
//
// which needs protoc on the PATH (Debian: apt-get install protobuf-compiler).
// The two code generators are pinned by the tool directives in go.mod, so
// everyone produces the same bytes; .ci/run fails when the committed code
// is stale.
//go:generate sh -c "protoc --plugin=protoc-gen-go=$(go tool -n protoc-gen-go) --plugin=protoc-gen-go-grpc=$(go tool -n protoc-gen-go-grpc) --go_out=. --go_opt=paths=source_relative --go-grpc_out=. --go-grpc_opt=paths=source_relative tools/v1/tools.proto"
