package grade

// MCPClient grades the mcp-client exercise. (Placeholder: its stages are being written.)
func MCPClient() *Grader {
	return &Grader{Exercise: "mcp-client"}
}
