package grade

// mcpDualCases are the mcp-dual programs TestGolden grades.
func mcpDualCases() []gradeCase {
	return []gradeCase{
		{"mcp-dual", "solution", "../../solutions/mcp-dual", "", ""},
		{"mcp-dual", "starter", "../mcp-dual", "serves 2026-07-28 requests without initialize", hintModernNoInit},
		{"mcp-dual", "no-result-type", "", "serves 2026-07-28 requests without initialize", hintResultType},
		{"mcp-dual", "no-meta-check", "", "refuses a request missing its _meta", hintMissingMeta},
		{"mcp-dual", "version-as-result", "", "refuses a revision it does not serve", hintUnsupported},
		{"mcp-dual", "ping-in-modern", "", "leaves ping and logging/setLevel to 2025-11-25", hintRemoved},
		{"mcp-dual", "modern-opens-session", "", "judges every request on its own", hintNoSession},
		{"mcp-dual", "answers-notification", "", "never answers a notification", HintNotification},
	}
}
