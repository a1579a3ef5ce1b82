package grade

// stdioServerCases are the stdio-server programs TestGolden grades.
func stdioServerCases() []gradeCase {
	return []gradeCase{
		{"stdio-server", "solution", "../../solutions/stdio-server", "", ""},
		{"stdio-server", "starter", "../stdio-server", "answers one call", ""},
		{"stdio-server", "logs-to-stdout", "", "answers one call", HintStdoutLogs},
		{"stdio-server", "no-json-tags", "", "answers one call", HintJSONTags},
		{"stdio-server", "id-as-string", "", "echoes ids exactly", HintIDType},
		{"stdio-server", "default-scanner", "", "handles a 100 KiB line", HintScanner},
	}
}
