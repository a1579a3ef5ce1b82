package grade

// fixBadToken401Cases are the fix-bad-token-401 programs TestGolden
// grades.
func fixBadToken401Cases() []gradeCase {
	return []gradeCase{
		{"fix-bad-token-401", "solution", "../../solutions/fix-bad-token-401", "", ""},
		{"fix-bad-token-401", "starter", "../fix-bad-token-401", "answers an unknown token with 401", hintHTTP401},
		{"fix-bad-token-401", "forbidden-as-401", "", "answers a missing scope with 403", hintHTTP403},
	}
}
