// Package direct computes stride-1 float32 convolutions with AVX-512 (amd64) or NEON (arm64)
// kernels that read the zero-padded image in place: the unfolded column matrix of the im2col method is never
// written, and every multiply is one that the convolution needs.
//
// A Direct plan holds one convolution's shape, its filters laid out for the kernels and, per
// tap (channel, row, column of the filter), the tap's offset in the padded image. The forward
// kernels compute up to 14 consecutive output positions × 16 or 32 filters, channels last,
// and the driver transposes each image's result to NCHW; the input gradient is the forward
// convolution of the padded output gradient with the rotated filters. The weight-gradient
// kernel sums 8 taps × 16 or 32 filters over an image's positions from the output gradient
// laid out channels last.
//
// A Planar plan computes 3×3 convolutions in NCHW, 16 positions of an output row to a
// vector (a masked one for a row's last positions): its forward kernel writes the output planes
// and its weight-gradient kernel reads the output gradient's planes as they are, with the taps'
// input rows one index register at scales 0, 1 and 2 and their columns displacements. Nothing
// is transposed, and neither filters nor taps are padded to a vector, which is what an image
// with few channels (a network's first layer) needs.
//
// A Winograd plan computes 3×3 convolutions by F(2×2, 3×3): 16 multiplies per 2×2 output tile,
// channel and filter instead of 36. Its gemms over the transformed tiles are the same two
// kernels, with tiles for positions and transformed planes for taps. Forward,
// WeightGrad and InputGrad pick the plan for a shape: Winograd's where it fits (8 channels and
// 8 filters or more), else the planar one where its vectors are three quarters full, else
// the direct one.
//
// The NEON kernels of arm64 compute the AVX-512 ones' tiles in narrower pieces, with the same
// operations in the same order (fused multiply-adds where amd64 fuses): the results are amd64's
// bit for bit (TestKernelsGiveTheSameBitsOnEveryArchitecture).
//
// The package serves one image at a time; callers share the images of a batch out to cores:
//
//	plan := direct.Forward(s, w, bias) // a Winograd, a Planar or a Direct plan
//	scratch := make([]float32, plan.ScratchLen())
//	plan.Image(y, x, scratch) // one image: y [Out][OH][OW] from x [C][H][W]
//
// Files:
//   - direct.go: Available, Shape, the Direct plan (NewForward, NewInputGrad, NewWeightGrad,
//     Image, AddWeightGrad, WeightGrad), ImagePlan, WeightGradPlan, and Forward, InputGrad and
//     WeightGrad, which pick a plan.
//   - gen_kernels.go, gen_winograd.go, gen_planar.go: the generator of kernels_amd64.s (build
//     tag ignore; go generate runs them): the forward and weight-gradient kernels, Winograd's
//     transforms and the planar kernels.
//   - kernels_amd64.go: the assembly kernels' tables and declarations (kernels_amd64.s,
//     generated) and the AVX-512 check.
//   - gen_neon.go, gen_planar_neon.go: the generator of kernels_arm64.s and
//     kernels_arm64_decl.go (build tag ignore; go generate runs them): the same kernels in NEON,
//     with amd64's operations in amd64's order, so that arm64 computes amd64's bits.
//   - kernels_arm64.go: the kernel tables of arm64, amd64's tiles made of the narrower NEON
//     kernels (kernels_arm64.s, declared in kernels_arm64_decl.go).
//   - kernels_other.go: no kernels on other architectures or with purego (Available is false).
//   - planar.go: PlanarFits and the Planar plan (NewPlanarForward, NewPlanarInputGrad,
//     NewPlanarWeightGrad, Image, AddWeightGrad, WeightGrad).
//   - layout.go: filter panels, tap lists padded to eights and near-equal runs of tiles.
//   - winograd.go: WinogradFits and the Winograd plan (NewWinogradForward,
//     NewWinogradInputGrad, NewWinogradWeightGrad, Image, AddWeightGrad, WeightGrad).
package direct

//go:generate go run gen_kernels.go gen_winograd.go gen_planar.go
//go:generate go run gen_neon.go gen_planar_neon.go
