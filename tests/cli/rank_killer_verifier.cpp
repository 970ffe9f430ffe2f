// Test verifier for the MPI failure test (mpi_certify_test.sh kill): stands in for a rank that dies
// in the middle of a run. Run by `flowcert certify --mpi` on a worker rank (the Open MPI / PMI rank
// it inherits is not 0), it waits two seconds (so that a short case elsewhere has finished) and
// kills its parent, the flowcert rank process, with SIGKILL. On rank 0 it plays a long case: it
// sleeps 60 s (mpirun ends the job long before). Exits 5 without a certificate either way. Never
// the verifier of a shipped case.
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

int main() {
    std::string rank = "0";
    for (const char* v : {"OMPI_COMM_WORLD_RANK", "PMI_RANK"})
        if (const char* s = std::getenv(v)) rank = s;
    if (rank != "0") {
        sleep(2);
        kill(getppid(), SIGKILL);  // the flowcert worker rank that spawned this process
        return 5;
    }
    sleep(60);
    return 5;
}
