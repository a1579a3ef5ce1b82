package grade

// fixAgentCardPathCases are the fix-agent-card-path programs TestGolden
// grades.
func fixAgentCardPathCases() []gradeCase {
	return []gradeCase{
		{"fix-agent-card-path", "solution", "../../solutions/fix-agent-card-path", "", ""},
		{"fix-agent-card-path", "starter", "../fix-agent-card-path", "serves its card at agent-card.json", hintCardPath},
		{"fix-agent-card-path", "hard-coded-url", "", "names the address it listens on", hintCardURL},
	}
}
