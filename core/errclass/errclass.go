// Package errclass says whose fault an error is. Domain packages mark the
// failures that are the server's (storage, I/O, encoding its own data) with
// Internal, and a full queue with Limit, where they arise; every other error
// is the client's and is answered with its message. API packages read the
// class with Of and HTTPStatus and never keep lists of sentinels.
package errclass

import (
	"errors"
	"net/http"
)

// Class is whose fault an error is.
type Class uint8

// The classes. The zero value is ClassClient: an error nobody marked is the
// caller's mistake.
const (
	ClassClient   Class = iota // 400, the message is shown
	ClassLimit                 // 429, a limit was reached; retry later
	ClassInternal              // 500, details only in the server's log
)

// JSON-RPC error codes of the classes.
const (
	CodeInvalidParams = -32602
	CodeInternal      = -32603
	CodeLimitExceeded = -32005 // EIP-1474 "limit exceeded"
)

// Error is an error with its class and, for JSON-RPC, its code. geth's rpc
// package reads the code through ErrorCode.
type Error struct {
	Class Class
	Code  int // JSON-RPC code; 0 means the class's code
	Err   error
}

// Error returns the wrapped error's message.
func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode is the JSON-RPC error code: Code, or the class's code.
func (e *Error) ErrorCode() int {
	if e.Code != 0 {
		return e.Code
	}
	switch e.Class {
	case ClassInternal:
		return CodeInternal
	case ClassLimit:
		return CodeLimitExceeded
	}
	return CodeInvalidParams
}

// Internal marks err as the server's fault. It returns nil for nil.
func Internal(err error) error {
	if err == nil {
		return nil
	}
	return &Error{Class: ClassInternal, Err: err}
}

// Limited marks err as a limit reached (a full pool). It returns nil for nil.
func Limited(err error) error {
	if err == nil {
		return nil
	}
	return &Error{Class: ClassLimit, Err: err}
}

// Of returns err's class: that of the outermost Error in its chain, Client
// when none is marked.
func Of(err error) Class {
	var e *Error
	if errors.As(err, &e) {
		return e.Class
	}
	return ClassClient
}

// IsInternal reports whether err is marked as the server's fault.
func IsInternal(err error) bool { return err != nil && Of(err) == ClassInternal }

// HTTPStatus is the status that answers err: 400, 429 or 500.
func HTTPStatus(err error) int {
	switch Of(err) {
	case ClassInternal:
		return http.StatusInternalServerError
	case ClassLimit:
		return http.StatusTooManyRequests
	}
	return http.StatusBadRequest
}

// RPC returns err as a JSON-RPC error with its class's code, or with code
// when code is not 0 and err is not internal. geth's rpc reads the code on
// the returned error itself, not through its chain. It returns nil for nil.
func RPC(err error, code int) error {
	if err == nil {
		return nil
	}
	c := Of(err)
	if c != ClassClient {
		code = 0
	}
	return &Error{Class: c, Code: code, Err: err}
}
