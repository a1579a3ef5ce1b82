package grade

// mcpWaryClientCases are the mcp-wary-client programs TestGolden grades.
func mcpWaryClientCases() []gradeCase {
	return []gradeCase{
		{"mcp-wary-client", "solution", "../../solutions/mcp-wary-client", "", ""},
		{"mcp-wary-client", "starter", "../mcp-wary-client", "shows every description whole", hintWaryWhole},
		{"mcp-wary-client", "truncates-descriptions", "", "shows every description whole", hintWaryWhole},
		{"mcp-wary-client", "unmarked-result", "", "marks a result as untrusted data", hintWaryMark},
		{"mcp-wary-client", "trusts-read-only-hint", "", "asks before every call", hintWaryAnnotation},
		{"mcp-wary-client", "pins-name-only", "", "refuses a tool that changed", hintWaryPinAll},
		{"mcp-wary-client", "calls-changed-tool", "", "refuses a tool that changed", hintWaryRefuse},
		{"mcp-wary-client", "relists-on-notice", "", "notices a change nobody announced", hintWaryRelist},
	}
}
