// launch: --grid 256 --block 256
// about: array of structs: reading one field of a 12-byte struct fetches 12 sectors per request
struct Particle { float x, y, z; };
__global__ void aos(const Particle* p, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].x;
}
