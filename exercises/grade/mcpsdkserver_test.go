package grade

// mcpSDKServerCases are the mcp-sdk-server programs TestGolden grades.
func mcpSDKServerCases() []gradeCase {
	return []gradeCase{
		{"mcp-sdk-server", "solution", "../../solutions/mcp-sdk-server", "", ""},
		{"mcp-sdk-server", "starter", "../mcp-sdk-server", "completes the handshake", hintSDKNoTool},
		{"mcp-sdk-server", "untagged-input", "", "lists word_count with closed schemas", hintSDKTags},
		{"mcp-sdk-server", "hand-written-schema", "", "lists word_count with closed schemas", hintSDKAddTool},
		{"mcp-sdk-server", "text-output", "", "lists word_count with closed schemas", hintSDKOutput},
		{"mcp-sdk-server", "counts-bytes", "", "answers with structuredContent", hintRunes},
		{"mcp-sdk-server", "error-as-text", "", "reports a tool error", hintSDKToolError},
	}
}
