// Package cli is wirelab's command line: it parses flags and wires the
// protocol packages to stdin, stdout, listeners and child processes.
//
// The commands are a contract that users' scripts rely on; extend them,
// never change what an existing one does:
//
//	wirelab [serve] [--addr 127.0.0.1:8018] [--no-open]
//	wirelab server stdio [--max-line BYTES]
//	wirelab server http [--addr HOST:PORT] [--token SECRET[:SCOPE,...]]...
//	wirelab client stdio [--cmd "COMMAND LINE"] [--timeout D] [--tool-version V] TOOL [KEY=VALUE | KEY:=JSON]...
//	wirelab client http [--url URL] [--token T] [--timeout D] [--tool-version V] TOOL [KEY=VALUE | KEY:=JSON]...
//	wirelab server grpc | mcp | a2a ...   (see wirelab help)
//	wirelab server oauth [--addr HOST:PORT] [--client ID[:SECRET]=REDIRECT_URI]...
//	wirelab client grpc | mcp | a2a ...
//	wirelab exercises [--json] [--lang en|ru]
//	wirelab init DIR
//	wirelab grade ID... [--dir DIR] [--all-stages] [--json] [--watch]
//	wirelab hint ID [--lang en|ru]
//	wirelab version | help [COMMAND]
//
// Network servers accept port 0 and print one line on stderr,
// "wirelab: <proto> server listening on <URL>", once they accept
// connections. Clients print the result JSON on stdout and exit 0; on a
// tool error they exit 1, on a protocol or transport error 2. Usage
// errors print one line and the synopsis of the command called, and exit
// 2. `wirelab COMMAND --help` (or -h, or `wirelab help COMMAND`) prints
// that command's part of `wirelab help` and its flags on stdout, and
// exits 0. grade exits 0 only when every stage of every exercise asked
// for passed, and 1 otherwise.
package cli
