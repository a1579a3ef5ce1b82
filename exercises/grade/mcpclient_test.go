package grade

// mcpClientCases are the mcp-client programs TestGolden grades.
func mcpClientCases() []gradeCase {
	return []gradeCase{
		{"mcp-client", "solution", "../../solutions/mcp-client", "", ""},
		{"mcp-client", "starter", "../mcp-client", "completes the handshake", hintMCPAccept},
		{"mcp-client", "no-initialized", "", "completes the handshake", hintMCPInitialized},
		{"mcp-client", "drops-session-id", "", "completes the handshake", hintMCPSession},
		{"mcp-client", "reuses-id", "", "completes the handshake", hintMCPNewID},
		{"mcp-client", "counts-from-zero", "", "completes the handshake", hintMCPNeedsID},
		{"mcp-client", "prints-result-json", "", "prints the tool's text", hintMCPWholeJSON},
		{"mcp-client", "first-block-only", "", "prints every text block", hintMCPTextBlocks},
		{"mcp-client", "json-only", "", "reads an SSE answer", hintMCPSSE},
		{"mcp-client", "ignores-is-error", "", "reports a tool error", hintMCPIsError},
		{"mcp-client", "protocol-error-exits-1", "", "reports a protocol error", hintMCPRPCError},
	}
}
