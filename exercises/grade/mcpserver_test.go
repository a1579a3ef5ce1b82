package grade

// mcpServerCases are the mcp-server programs TestGolden grades.
func mcpServerCases() []gradeCase {
	return []gradeCase{
		{"mcp-server", "solution", "../../solutions/mcp-server", "", ""},
		{"mcp-server", "starter", "../mcp-server", "completes the handshake", ""},
		{"mcp-server", "answers-notification", "", "completes the handshake", HintNotification},
		{"mcp-server", "no-init-check", "", "refuses requests before initialize", hintBeforeInit},
		{"mcp-server", "snake-case-schema", "", "lists its tools", HintCamelCase},
		{"mcp-server", "tool-error-as-protocol-error", "", "tells tool errors from protocol errors", HintToolErrorAsProtocolError},
	}
}
