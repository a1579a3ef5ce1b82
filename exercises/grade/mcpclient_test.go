package grade

// mcpClientCases are the mcp-client programs TestGolden grades.
func mcpClientCases() []gradeCase {
	return nil
}
