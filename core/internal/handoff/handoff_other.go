//go:build !unix

package handoff

import (
	"errors"
	"syscall"
)

func detached() (*syscall.SysProcAttr, error) { return nil, errors.ErrUnsupported }

func tryLock(string) (func(), bool, error) { return nil, false, errors.ErrUnsupported }

func alive(int) bool { return false }
