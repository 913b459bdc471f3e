package store

/*
#cgo CFLAGS: -O3
#include "dot.h"
*/
import "C"

import "unsafe"

// dotsI8 sets dot[j] to the dot product of q with the j-th of len(dot)
// int8 vectors of len(q) components stored back to back in v, and nn[j] to
// that vector's squared norm; v must hold len(dot)·len(q) bytes and nn
// must be as long as dot. It is the scan's inner loop, in C so that the
// compiler vectorises it; dotI8 is its Go reference.
func dotsI8(q []int8, v []byte, dot, nn []int32) {
	if len(q) == 0 || len(dot) == 0 {
		return
	}
	_ = v[len(dot)*len(q)-1]
	_ = nn[len(dot)-1]
	C.dots_i8((*C.int8_t)(unsafe.Pointer(&q[0])), (*C.int8_t)(unsafe.Pointer(&v[0])),
		C.int(len(q)), C.int(len(dot)), (*C.int32_t)(unsafe.Pointer(&dot[0])), (*C.int32_t)(unsafe.Pointer(&nn[0])))
}

// dotsI8Portable is dotsI8 by the portable C loop alone (dots_i8_c),
// whatever the CPU offers, so that tests compare both kernels on a machine
// where dotsI8 picks the AVX2 one.
func dotsI8Portable(q []int8, v []byte, dot, nn []int32) {
	if len(q) == 0 || len(dot) == 0 {
		return
	}
	_ = v[len(dot)*len(q)-1]
	_ = nn[len(dot)-1]
	C.dots_i8_c((*C.int8_t)(unsafe.Pointer(&q[0])), (*C.int8_t)(unsafe.Pointer(&v[0])),
		C.int(len(q)), C.int(len(dot)), (*C.int32_t)(unsafe.Pointer(&dot[0])), (*C.int32_t)(unsafe.Pointer(&nn[0])))
}

// dotI8 returns the dot product of the int8 vector q with v, the bytes of
// another int8 vector of the same length, and v's squared norm: the slow
// reference for dotsI8.
func dotI8(q []int8, v []byte) (dot, nn int32) {
	v = v[:len(q)]
	for i, a := range q {
		b := int32(int8(v[i]))
		dot += int32(a) * b
		nn += b * b
	}
	return dot, nn
}

// dotsF32 sets out[j] to the dot product of u with the j-th of len(out)
// float32 vectors of len(u) components stored back to back in v, which
// must hold len(out)·len(u) floats.
func dotsF32(u, v, out []float32) {
	if len(u) == 0 || len(out) == 0 {
		return
	}
	_ = v[len(out)*len(u)-1]
	C.dots_f32((*C.float)(unsafe.Pointer(&u[0])), (*C.float)(unsafe.Pointer(&v[0])),
		C.int(len(u)), C.int(len(out)), (*C.float)(unsafe.Pointer(&out[0])))
}
