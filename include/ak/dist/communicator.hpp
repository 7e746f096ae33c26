// The processes a distributed algorithm runs across, and the one small interface through which
// ak::dist talks between them.
//
//   ak::dist::mpi_session mpi(argc, argv);      // MPI_Init / MPI_Finalize, unless already done
//   ak::dist::communicator world = ak::dist::world();
//   auto sorted = ak::dist::sort(world, local);  // local: this rank's ak::array, on any device
//
// Every algorithm of ak::dist talks through `transport` alone: MPI is its one implementation
// today (src/dist/mpi_transport.cpp), and another (NCCL, a GPU-aware MPI) would implement the
// same few collectives without touching the algorithms. Buffers passed to a transport are host
// memory; the algorithms stage device data through the host.
//
// A transport reports a failed call as ak::dist_error naming the call; every ak::dist algorithm
// raises its argument errors on every rank at once (agree() in detail/collectives.hpp), so that
// a bad argument on one rank never leaves the others waiting.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "ak/core/error.hpp"

namespace ak {

// A failure of the transport between processes (an MPI call that returned an error), or ranks
// that disagree on a collective call. The message names the call.
class dist_error : public error {
 public:
  using error::error;
};

namespace dist {

// The collectives ak::dist needs, on host memory. Counts are in elements of `element_size`
// bytes; every rank of the group must make the same calls in the same order (MPI's rule).
class transport {
 public:
  virtual ~transport() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // The most elements one rank may send or receive in one call (MPI: INT_MAX, its int counts and
  // displacements). The algorithms check it on every rank before a call that would pass it.
  virtual std::int64_t max_elements() const = 0;
  // Every rank's `element_size` bytes of `mine`, in rank order, into `all` (size() elements).
  virtual void allgather(const void* mine, void* all, std::size_t element_size) const = 0;
  // Every rank's `counts[r]` elements into `all`, rank after rank; counts are every rank's, known
  // to all (from an allgather).
  virtual void allgatherv(const void* mine, std::span<const std::int64_t> counts, void* all,
                          std::size_t element_size) const = 0;
  // Element-wise sum over ranks of `values`, in place, on every rank.
  virtual void allreduce_sum(std::span<std::int64_t> values) const = 0;
  // Sends send_counts[r] elements (consecutive, rank after rank, from `send`) to rank r and
  // receives recv_counts[r] elements from rank r into `recv`, rank after rank.
  virtual void alltoallv(const void* send, std::span<const std::int64_t> send_counts, void* recv,
                         std::span<const std::int64_t> recv_counts,
                         std::size_t element_size) const = 0;
};

// A group of ranks: a shared handle to its transport, cheap to copy. It also counts the
// collective calls made through it and the bytes this rank sent in them to other ranks (for
// benchmarks; not thread-safe, as ak::dist never shares a communicator between threads).
class communicator {
 public:
  explicit communicator(std::shared_ptr<const transport> t);
  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  const transport& raw() const noexcept { return *transport_; }
  // Collective calls made through this communicator (and its copies) so far.
  std::int64_t collectives() const noexcept { return counts_->collectives; }
  // Bytes this rank sent to other ranks in them: its part of an allgather once per other rank,
  // what an all-to-all sends off this rank, and the values of an allreduce once.
  std::int64_t bytes_sent() const noexcept { return counts_->bytes_sent; }
  void count_collective(std::int64_t bytes_sent) const noexcept {
    ++counts_->collectives;
    counts_->bytes_sent += bytes_sent;
  }

 private:
  struct counts {
    std::int64_t collectives = 0;
    std::int64_t bytes_sent = 0;
  };
  std::shared_ptr<const transport> transport_;
  std::shared_ptr<counts> counts_;
  int rank_;
  int size_;
};

// MPI for a program that has no other use for it: MPI_Init_thread (funneled) in the constructor
// and MPI_Finalize in the destructor, each only when MPI was not already initialised (finalised)
// by someone else. One per program.
class mpi_session {
 public:
  mpi_session(int& argc, char**& argv);
  mpi_session();
  ~mpi_session();
  mpi_session(const mpi_session&) = delete;
  mpi_session& operator=(const mpi_session&) = delete;

 private:
  bool owns_ = false;
};

// MPI_COMM_WORLD (MPI must be initialised: an mpi_session, or the program's own MPI_Init).
// A communicator of another MPI_Comm: ak::dist::mpi_communicator in ak/dist/mpi.hpp.
communicator world();

}  // namespace dist
}  // namespace ak
