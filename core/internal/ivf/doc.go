// Package ivf is the arithmetic of the store's vector index, an inverted
// file (IVF: Sivic and Zisserman, "Video Google", ICCV 2003; Jégou, Douze
// and Schmid, "Product quantization for nearest neighbor search", TPAMI
// 2011) of int8 vectors: quantisation (Quantize), the lists' centroids
// (Lists), their training by spherical k-means (KMeans, or a Plan whose
// sample is taken while the vectors stream past) and the choice of a
// vector's nearest lists (Nearest, NearestN; for many vectors Assign,
// which prunes the centroids it compares with a Tree of bounds and finds
// the same lists as a scan of all of them). It touches no database;
// core/store keeps the vectors and centroids in SQLite and scans the
// probed lists inside SQLite.
//
// Ranking is by cosine of the centred vectors. Dot products go through a
// Dots function: DotsGo here, the store's vectorised C kernel there, which
// sums in the same order, so that a list ranks the same in Go and in the
// store's SQL function.
package ivf
