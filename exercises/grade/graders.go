package grade

// For returns the grader of a code exercise, or false if it has none
// (a frame exercise, or an unknown id).
func For(exercise string) (*Grader, bool) {
	var g *Grader
	switch exercise {
	case "stdio-server":
		g = StdioServer()
	case "http-server":
		g = HTTPServer()
	case "grpc-server":
		g = GRPCServer()
	case "schema-versions":
		g = SchemaVersions()
	case "mcp-server":
		g = MCPServer()
	case "mcp-client":
		g = MCPClient()
	case "mcp-dual":
		g = MCPDual()
	case "mcp-resource-server":
		g = MCPResourceServer()
	case "find-the-defect":
		g = FindTheDefect()
	case "a2a-client":
		g = A2AClient()
	case "mcp-sdk-server":
		g = MCPSDKServer()
	case "fix-parse-error":
		g = FixParseError()
	case "fix-bad-token-401":
		g = FixBadToken401()
	case "fix-unchecked-status":
		g = FixUncheckedStatus()
	case "fix-agent-card-path":
		g = FixAgentCardPath()
	case "stdio-client":
		g = StdioClient()
	case "fix-session-404":
		g = FixSession404()
	case "mcp-wary-client":
		g = MCPWaryClient()
	case "fix-initialized":
		g = FixInitialized()
	case "fix-is-error":
		g = FixIsError()
	default:
		return nil, false
	}
	return g, true
}
