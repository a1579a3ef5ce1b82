package grade

// mcpResourceServerCases are the mcp-resource-server programs TestGolden
// grades.
func mcpResourceServerCases() []gradeCase {
	const (
		noToken = "refuses a call without a token"
		bad     = "refuses tokens it must not trust"
		scopes  = "asks for the scope a call needs"
	)
	return []gradeCase{
		{"mcp-resource-server", "solution", "../../solutions/mcp-resource-server", "", ""},
		{"mcp-resource-server", "starter", "../mcp-resource-server", noToken, hintRSNoToken},
		{"mcp-resource-server", "forbidden-without-token", "", noToken, hintRS401},
		{"mcp-resource-server", "no-resource-metadata", "", noToken, hintRSResourceMetadata},
		{"mcp-resource-server", "unverified-claims", "", bad, hintRSSignature},
		{"mcp-resource-server", "no-audience-check", "", bad, hintRSAudience},
		{"mcp-resource-server", "audience-optional", "", bad, hintRSNoAudience},
		{"mcp-resource-server", "no-exp-accepted", "", bad, hintRSExpiry},
		{"mcp-resource-server", "no-issuer-check", "", bad, hintRSIssuer},
		{"mcp-resource-server", "token-in-query", "", bad, hintRSQuery},
		{"mcp-resource-server", "scope-not-checked", "", scopes, hintRSScope},
		{"mcp-resource-server", "unauthorized-for-scope", "", scopes, hintRS403},
	}
}
