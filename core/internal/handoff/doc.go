// Package handoff hands an index refresh to a detached background process,
// so that a hook that finds work it cannot finish in its budget returns at
// once and loses nothing.
//
// Two files beside the index file DB keep the protocol:
//
//   - DB.refresh holds a request token, rewritten by every Request;
//   - DB.refresh.lock is flocked by the one background runner while it
//     lives, and holds its pid (for status output).
//
// Request rewrites the token and starts the runner's command detached (a
// new session, stdin from /dev/null, stdout and stderr appended to the
// refresh log), without waiting for it. Serve is the runner's side: it
// takes the runner lock or returns at once (another runner serves the
// request), and runs the refresh again for as long as the token changed
// during the previous run. So requests that arrive while a refresh runs
// cost one more run, not one each, and a request is never lost: a token
// written before the runner's last look makes it run again, and one
// written after makes Request start a runner that finds the lock free.
//
// The kernel drops the flock when the runner dies, even by kill -9.
package handoff
