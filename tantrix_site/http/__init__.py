"""The HTTP edge every app shares: what a request may be (`middleware`: body size, a busy
service), how a domain error becomes an answer (`answers` for the API and the error pages,
`forms` for a web form), the API's throttles, filters and schema notes, and the limits on failed
logins (`login_limits`).

Kept free of imports: DRF imports `throttles` while its own views are being defined, which
`login_limits` imports."""
