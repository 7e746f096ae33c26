// ak::dist's transport over MPI: the collectives of communicator.hpp on a duplicate of the
// user's MPI communicator, with MPI's errors returned (MPI_ERRORS_RETURN) and raised as
// ak::dist_error naming the call.
#include <mpi.h>

#include <climits>
#include <string>
#include <vector>

#include "ak/dist/communicator.hpp"
#include "ak/dist/mpi.hpp"

namespace ak::dist {

namespace {

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  throw dist_error(std::string("ak::dist: ") + call + " failed: " +
                   (length > 0 ? std::string(text, static_cast<std::size_t>(length))
                               : "error code " + std::to_string(code)));
}

// MPI counts and displacements are int: a count past INT_MAX elements cannot be sent in one call.
int as_count(std::int64_t n, const char* call) {
  if (n < 0 || n > INT_MAX)
    throw dist_error(std::string("ak::dist: ") + call + ": " + std::to_string(n) +
                     " elements in one call; MPI's int counts and displacements allow at most " +
                     std::to_string(INT_MAX) + " per rank");
  return static_cast<int>(n);
}

// A datatype of `bytes` contiguous bytes, freed on scope exit.
class element_type {
 public:
  explicit element_type(std::size_t bytes) {
    check(MPI_Type_contiguous(as_count(static_cast<std::int64_t>(bytes), "MPI_Type_contiguous"),
                              MPI_BYTE, &type_),
          "MPI_Type_contiguous");
    if (const int code = MPI_Type_commit(&type_); code != MPI_SUCCESS) {
      MPI_Type_free(&type_);
      check(code, "MPI_Type_commit");
    }
  }
  ~element_type() { MPI_Type_free(&type_); }
  element_type(const element_type&) = delete;
  element_type& operator=(const element_type&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// Counts and displacements (prefix sums) as MPI's ints.
void counts_and_displacements(std::span<const std::int64_t> counts, std::vector<int>& c,
                              std::vector<int>& d, const char* call) {
  c.resize(counts.size());
  d.resize(counts.size());
  std::int64_t at = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    c[r] = as_count(counts[r], call);
    d[r] = as_count(at, call);
    at += counts[r];
  }
  as_count(at, call);
}

class mpi_transport final : public transport {
 public:
  explicit mpi_transport(MPI_Comm user) {
    check(MPI_Comm_dup(user, &comm_), "MPI_Comm_dup");
    check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
  }
  ~mpi_transport() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Comm_free(&comm_);
  }
  mpi_transport(const mpi_transport&) = delete;
  mpi_transport& operator=(const mpi_transport&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::int64_t max_elements() const override { return INT_MAX; }

  void allgather(const void* mine, void* all, std::size_t element_size) const override {
    const element_type t(element_size);
    check(MPI_Allgather(mine, 1, t.get(), all, 1, t.get(), comm_), "MPI_Allgather");
  }

  void allgatherv(const void* mine, std::span<const std::int64_t> counts, void* all,
                  std::size_t element_size) const override {
    const element_type t(element_size);
    std::vector<int> c, d;
    counts_and_displacements(counts, c, d, "MPI_Allgatherv");
    check(MPI_Allgatherv(mine, c[static_cast<std::size_t>(rank_)], t.get(), all, c.data(), d.data(),
                         t.get(), comm_),
          "MPI_Allgatherv");
  }

  void allreduce_sum(std::span<std::int64_t> values) const override {
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(),
                        as_count(static_cast<std::int64_t>(values.size()), "MPI_Allreduce"),
                        MPI_INT64_T, MPI_SUM, comm_),
          "MPI_Allreduce");
  }

  void alltoallv(const void* send, std::span<const std::int64_t> send_counts, void* recv,
                 std::span<const std::int64_t> recv_counts,
                 std::size_t element_size) const override {
    const element_type t(element_size);
    std::vector<int> sc, sd, rc, rd;
    counts_and_displacements(send_counts, sc, sd, "MPI_Alltoallv");
    counts_and_displacements(recv_counts, rc, rd, "MPI_Alltoallv");
    check(MPI_Alltoallv(send, sc.data(), sd.data(), t.get(), recv, rc.data(), rd.data(), t.get(),
                        comm_),
          "MPI_Alltoallv");
  }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
};

bool mpi_initialized() {
  int done = 0;
  MPI_Initialized(&done);
  return done != 0;
}

}  // namespace

communicator mpi_communicator(MPI_Comm comm) {
  if (!mpi_initialized())
    throw dist_error(
        "ak::dist: MPI is not initialised (make an ak::dist::mpi_session, or call MPI_Init)");
  return communicator(std::make_shared<mpi_transport>(comm));
}

communicator world() {
  return mpi_communicator(MPI_COMM_WORLD);
}

mpi_session::mpi_session(int& argc, char**& argv) {
  if (mpi_initialized()) return;
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  owns_ = true;
}

mpi_session::mpi_session() {
  if (mpi_initialized()) return;
  int provided = 0;
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  owns_ = true;
}

mpi_session::~mpi_session() {
  if (!owns_) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

}  // namespace ak::dist
