package grade

// schemaVersionsCases are the schema-versions programs TestGolden grades.
func schemaVersionsCases() []gradeCase {
	return []gradeCase{
		{"schema-versions", "solution", "../../solutions/schema-versions", "", ""},
		{"schema-versions", "starter", "../schema-versions", "serves the current version", hintSVNewShape},
		{"schema-versions", "missing-version-refused", "", "defaults to the current version", hintSVDefault},
		{"schema-versions", "missing-version-oldest", "", "defaults to the current version", hintSVDefault},
		{"schema-versions", "one-shape", "", "answers old versions in their own shape", hintSVOldShape},
		{"schema-versions", "no-versions-list", "", "refuses versions it does not serve", hintSVListVersions},
		{"schema-versions", "version-range", "", "refuses versions it does not serve", hintSVNotARange},
		{"schema-versions", "float-versions", "", "compares versions as whole strings", hintSVWholeStrings},
	}
}
