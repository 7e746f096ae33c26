// A user's MPI program on the installed ak::dist: run with `mpirun -np P ak_consumer_dist`.
#include <ak/ak.hpp>
#include <ak/dist/dist.hpp>
#include <cstdint>
#include <iostream>
#include <vector>

int main(int argc, char** argv) {
  ak::dist::mpi_session mpi(argc, argv);
  const ak::dist::communicator world = ak::dist::world();
  const int P = world.size(), r = world.rank();
  // Rank r holds r, r + P, r + 2P, ... below 1000, in reverse: together 0..999.
  std::vector<std::int64_t> part;
  for (std::int64_t x = 999 - ((999 - r) % P); x >= 0; x -= P) part.push_back(x);
  const ak::array<std::int64_t> local(part);
  const auto sorted = ak::dist::sort(world, local).to_vector();
  const std::int64_t first = ak::dist::offset(world, ak::array<std::int64_t>(sorted));
  bool ok = ak::dist::sum(world, local) == 999 * 1000 / 2;
  for (std::size_t i = 0; i < sorted.size(); ++i)
    ok = ok && sorted[i] == first + static_cast<std::int64_t>(i);
  const bool all_ok = ak::dist::all(world, ak::array<bool>(std::vector<bool>{ok}));
  if (r == 0) std::cout << "ak::dist on " << P << " ranks: " << (all_ok ? "ok" : "WRONG") << "\n";
  return all_ok ? 0 : 1;
}
