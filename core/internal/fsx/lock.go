package fsx

import "errors"

// ErrLocked is TryLock's error when another holder has the lock.
var ErrLocked = errors.New("locked by another process")
