package grpctool

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"

	"github.com/wirelab/wirelab/protocols/tools"
)

// errorDomain names this API in google.rpc.ErrorInfo details, so a client
// can tell our reasons from another service's.
const errorDomain = "tools.v1.wirelab"

// statusOf turns a failed catalogue call into the gRPC status a client
// sees. The message is for people; the details are for programs: a
// client reads them with status.FromError(err).Details() instead of
// parsing the message.
func statusOf(err error) error {
	var te *tools.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		// The tool stopped because the caller's deadline passed or the
		// caller went away: DEADLINE_EXCEEDED or CANCELLED.
		return status.FromContextError(err).Err()
	case !errors.As(err, &te):
		return status.Errorf(codes.Internal, "internal error: %v", err)
	}
	switch te.Code {
	case tools.CodeUnknownTool:
		return status.Error(codes.NotFound, te.Message)
	case tools.CodeInvalidArguments:
		violations := make([]*errdetails.BadRequest_FieldViolation, len(te.Fields))
		for i, f := range te.Fields {
			field := "arguments"
			if f.Field != "" {
				field += "." + f.Field
			}
			violations[i] = fieldViolation(field, fmt.Sprintf("%s (rule %q)", f.Message, f.Rule))
		}
		return badRequest(te.Message, violations...)
	case tools.CodeIncompatibleVersion:
		// FAILED_PRECONDITION: the request is well formed, but the server
		// is not in the state it needs (serving that version). Retrying
		// the same call will not help; changing the version will.
		return withDetails(status.New(codes.FailedPrecondition, te.Message), &errdetails.ErrorInfo{
			Reason:   "INCOMPATIBLE_VERSION",
			Domain:   errorDomain,
			Metadata: map[string]string{"tool": te.Tool, "served_versions": strings.Join(te.Versions, ",")},
		})
	case tools.CodeForbidden:
		return withDetails(status.New(codes.PermissionDenied, te.Message), &errdetails.ErrorInfo{
			Reason:   "MISSING_SCOPE",
			Domain:   errorDomain,
			Metadata: map[string]string{"tool": te.Tool, "scope": string(te.Scope)},
		})
	default:
		return status.Errorf(codes.Internal, "internal error: unexpected %s: %s", te.Code, te.Message)
	}
}

// badRequest is INVALID_ARGUMENT with a google.rpc.BadRequest detail that
// names each broken field.
func badRequest(msg string, violations ...*errdetails.BadRequest_FieldViolation) error {
	return withDetails(status.New(codes.InvalidArgument, msg), &errdetails.BadRequest{FieldViolations: violations})
}

func fieldViolation(field, description string) *errdetails.BadRequest_FieldViolation {
	return &errdetails.BadRequest_FieldViolation{Field: field, Description: description}
}

// withDetails attaches a detail to a status. Details travel in the
// grpc-status-details-bin trailer as a binary google.rpc.Status.
func withDetails(s *status.Status, detail protoadapt.MessageV1) error {
	ds, err := s.WithDetails(detail)
	if err != nil {
		// Only an OK status or an unencodable detail fails here; neither
		// happens above, and the plain status still says what went wrong.
		return s.Err()
	}
	return ds.Err()
}
