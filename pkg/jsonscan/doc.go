// Package jsonscan reads one JSON document (RFC 8259) in place, token by token, for decoders that walk a body by
// its schema instead of building a tree or reflecting over a struct. A valid document is read with no allocation:
// strings come back as slices of the input, numbers are parsed without copying, and only strings that hold escapes
// are decoded, into a scratch buffer the Scanner keeps.
//
// It exists because request bodies are untrusted and hot: pkg/api's decoders check every rule of the API
// specification and report each broken one at its JSON pointer, which encoding/json cannot do without decoding
// twice, and they must stay cheap on the valid path and bounded on a hostile one.
//
// # Usage
//
// A decoder asks Kind what comes next and calls the reader for that kind (ReadNumber, ReadString, ReadBool),
// Enter and Next to walk an object or array (MemberName inside an object), or Skip for a value it does not want;
// Skip still checks the value's syntax. Pointer names a value for an error message and costs nothing until it is
// formatted.
//
// # Errors
//
// A syntax error is sticky: the first one is recorded with its byte offset (counted from 0) and every later call
// returns zero values (Kind returns Invalid, Next returns false), so a decoder's loops end on their own and the
// caller reports Err, not the consequences of the error. Failed says whether that has happened.
//
// # Limits
//
// Skip refuses values nested deeper than MaxDepth levels, so a hostile body cannot exhaust the stack; the
// values a decoder walks itself are as deep as its schema. The size of the document is the caller's to bound
// (the HTTP server limits request bodies): the Scanner reads whatever slice it is given, in one pass.
//
// # Concurrency and lifetimes
//
// A Scanner reads one document and is not safe for concurrent use; it is a small value, meant to live on the
// stack of one decode. The slices MemberName and ReadString return alias the input, or the Scanner's scratch
// buffer when the string held escapes: they are valid until the next call to either, and never after the input
// is modified. Pointer is an immutable value, safe to share.
package jsonscan
