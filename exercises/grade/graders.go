package grade

// For returns the grader of a code exercise, or false if it has none
// (a frame exercise, or a code exercise whose grader is not written yet).
func For(exercise string) (*Grader, bool) {
	var g *Grader
	switch exercise {
	case "stdio-server":
		g = StdioServer()
	case "mcp-server":
		g = MCPServer()
	default:
		return nil, false
	}
	return g, true
}
