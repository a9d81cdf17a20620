/**
 * The most of a body read from a caller who may be nobody (an invite's accept, a password
 * reset): their fields are a name, an email, a token or a password, so 16 KB is plenty.
 */
export const ANONYMOUS_BODY_LIMIT = 16 * 1024;
