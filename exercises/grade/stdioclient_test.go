package grade

// stdioClientCases are the stdio-client programs TestGolden grades.
func stdioClientCases() []gradeCase {
	return []gradeCase{
		{"stdio-client", "solution", "../../solutions/stdio-client", "", ""},
		{"stdio-client", "starter", "../stdio-client", "starts the server once", hintStdioOneProcess},
		{"stdio-client", "untagged-request", "", "makes a call", HintJSONTags},
		{"stdio-client", "process-per-call", "", "starts the server once", hintStdioOneProcess},
		{"stdio-client", "answers-in-order", "", "matches answers by id", hintStdioByID},
		{"stdio-client", "one-at-a-time", "", "matches answers by id", hintStdioPipeline},
		{"stdio-client", "default-scanner", "", "reads a 100 KiB answer", HintScanner},
		{"stdio-client", "no-wait", "", "stops the server cleanly", hintStdioStop},
	}
}
