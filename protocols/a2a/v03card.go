package a2a

import (
	"encoding/json"
	"errors"
	"strings"
)

// One agent card for both revisions. A client reads the card before it
// knows which revision the agent speaks, so the card at
// /.well-known/agent-card.json must satisfy both: a 1.0 client looks for
// supportedInterfaces, a 0.3 client for url, protocolVersion and
// preferredTransport. Both ignore keys they do not know, so one JSON
// object can carry both sets. Most fields (name, skills with their tags,
// capabilities, the input and output modes) are spelled the same in both.

// v03CardFields are the card fields 0.3 clients need and 1.0 removed.
type v03CardFields struct {
	// ProtocolVersion is the revision spoken at URL. 1.0 moved it into
	// each of supportedInterfaces.
	ProtocolVersion string `json:"protocolVersion"`
	// URL and PreferredTransport name the interface to use first; 1.0
	// lists all interfaces alike.
	URL                string `json:"url"`
	PreferredTransport string `json:"preferredTransport"`
	// AdditionalInterfaces lists every interface, with "transport" where
	// 1.0 says "protocolBinding".
	AdditionalInterfaces []v03Interface `json:"additionalInterfaces,omitempty"`
	// Security is OpenAPI's security requirement list: {"bearer": []}.
	// 1.0 renamed it securityRequirements and wrapped each list:
	// {"schemes": {"bearer": {"list": []}}}.
	Security []map[string][]string `json:"security,omitempty"`
	// SupportsAuthenticatedExtendedCard moved into 1.0's capabilities as
	// extendedAgentCard.
	SupportsAuthenticatedExtendedCard bool `json:"supportsAuthenticatedExtendedCard,omitempty"`
}

// v03Interface is a 0.3 AgentInterface.
type v03Interface struct {
	URL       string `json:"url"`
	Transport string `json:"transport"`
}

// dualSecurityScheme is one security scheme in both spellings at once.
// 1.0 names the kind of scheme by a key holding an object
// ({"httpAuthSecurityScheme": {"scheme": "Bearer"}}); 0.3, like OpenAPI,
// put a "type" beside flat fields ({"type": "http", "scheme": "Bearer"}).
// The keys do not collide, and each revision's parser skips the other's.
type dualSecurityScheme struct {
	SecurityScheme        // 1.0
	Type           string `json:"type,omitempty"` // 0.3 from here on
	Scheme         string `json:"scheme,omitempty"`
	Description    string `json:"description,omitempty"`
}

// dualCard is the card both revisions read. Its own SecuritySchemes
// replaces the embedded AgentCard's: when two fields have the same JSON
// name, encoding/json uses the less deeply embedded one.
type dualCard struct {
	AgentCard
	v03CardFields
	SecuritySchemes map[string]dualSecurityScheme `json:"securitySchemes,omitempty"`
}

// CardJSON returns the agent card c as one JSON document that both 1.0
// and 0.3 clients accept: the 1.0 card, plus the 0.3 fields. The 0.3
// url is the first JSON-RPC interface that speaks 0.3, or failing that
// the first JSON-RPC interface (an agent may serve both revisions at one
// URL, telling them apart by the A2A-Version header). It fails if c has
// no JSON-RPC interface, since a 0.3 client would have nowhere to go.
//
// c.SecurityRequirements are written only in the 0.3 form, "security":
// [{"bearer": []}]. The 1.0 form, {"schemes": {"bearer": {"list": []}}},
// makes the official Go SDK v2.4.0 reject the whole card (a2aproject/a2a-go
// issue 430), so it is left out until that is fixed; 1.0 clients still
// see securitySchemes.
func CardJSON(c AgentCard) ([]byte, error) {
	pick := -1
	for i, iface := range c.SupportedInterfaces {
		if iface.ProtocolBinding != "JSONRPC" {
			continue
		}
		if pick < 0 {
			pick = i
		}
		if strings.HasPrefix(iface.ProtocolVersion, "0.3") {
			pick = i
			break
		}
	}
	if pick < 0 {
		return nil, errors.New("agent card has no JSONRPC interface in supportedInterfaces; 0.3 clients need one as their url")
	}
	card := dualCard{
		AgentCard: c,
		v03CardFields: v03CardFields{
			ProtocolVersion:                   "0.3.0",
			URL:                               c.SupportedInterfaces[pick].URL,
			PreferredTransport:                "JSONRPC",
			SupportsAuthenticatedExtendedCard: c.Capabilities.ExtendedAgentCard != nil && *c.Capabilities.ExtendedAgentCard,
		},
	}
	seen := map[v03Interface]bool{}
	for _, iface := range c.SupportedInterfaces {
		v := v03Interface{URL: iface.URL, Transport: iface.ProtocolBinding}
		if !seen[v] {
			seen[v] = true
			card.AdditionalInterfaces = append(card.AdditionalInterfaces, v)
		}
	}
	for _, req := range c.SecurityRequirements {
		alternative := map[string][]string{}
		for name, scopes := range req.Schemes {
			alternative[name] = append([]string{}, scopes.List...) // [] rather than null
		}
		card.Security = append(card.Security, alternative)
	}
	card.AgentCard.SecurityRequirements = nil // see above
	if len(c.SecuritySchemes) > 0 {
		card.SecuritySchemes = map[string]dualSecurityScheme{}
	}
	for name, s := range c.SecuritySchemes {
		dual := dualSecurityScheme{SecurityScheme: s}
		if h := s.HTTPAuthSecurityScheme; h != nil {
			dual.Type, dual.Scheme, dual.Description = "http", h.Scheme, h.Description
		}
		card.SecuritySchemes[name] = dual
	}
	return json.MarshalIndent(card, "", "  ")
}
