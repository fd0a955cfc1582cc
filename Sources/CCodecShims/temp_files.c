/* Temporary files removed when the process is interrupted (SIGINT, SIGTERM, SIGHUP).
 *
 * Atomic writes go through a temporary file beside the target. If the process is killed by a
 * signal it can catch, the handler removes the temporaries still registered, then dies of the
 * same signal (so the exit status still says which one). While a group of files is being renamed
 * into place (ccs_temp_defer_signals … ccs_temp_resume_signals), a signal waits for the group to
 * be complete or rolled back, so an interrupt never leaves half of a run's outputs new. Signal handlers may only call
 * async-signal-safe functions, so the registry is a fixed table of paths claimed with atomics
 * (no allocation, no locks); unlink(2), sigaction(2) and raise(3) are safe. */
#include <limits.h>
#include <signal.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>
#include "shims_internal.h"

#define CCS_TEMP_SLOTS 64

/* 0: free, 1: being filled or emptied, 2: holds a path to remove. */
static atomic_int slot_state[CCS_TEMP_SLOTS];
static char slot_path[CCS_TEMP_SLOTS][PATH_MAX];
static atomic_int handlers_installed;
/* Commits in progress (ccs_temp_defer_signals) and the signal that arrived meanwhile (0: none). */
static atomic_int defer_depth;
static atomic_int deferred_signal;

int ccs_temp_register(const char *path) {
    if (strlen(path) >= PATH_MAX) return -1;
    for (int i = 0; i < CCS_TEMP_SLOTS; i++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&slot_state[i], &expected, 1)) {
            strcpy(slot_path[i], path);
            atomic_store(&slot_state[i], 2);
            return i;
        }
    }
    return -1;
}

void ccs_temp_unregister(int slot) {
    if (slot < 0 || slot >= CCS_TEMP_SLOTS) return;
    atomic_store(&slot_state[slot], 0);
}

static void ccs_temp_signal(int sig);

/* Installs the handler for `sig` (again: SA_RESETHAND removed it when it ran). */
static void ccs_temp_install(int sig) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = ccs_temp_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    sigaction(sig, &action, NULL);
}

/* Removes the registered files, then dies of `sig`. */
static void ccs_temp_clean_up_and_die(int sig) {
    for (int i = 0; i < CCS_TEMP_SLOTS; i++) {
        if (atomic_load(&slot_state[i]) == 2) unlink(slot_path[i]);
    }
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(sig, &fallback, NULL);
    /* Called outside a handler, this thread may block the signal (libdispatch's threads block
     * them all): unblocked, the raise ends the process here and now. */
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, sig);
    pthread_sigmask(SIG_UNBLOCK, &only, NULL);
    raise(sig);
}

static void ccs_temp_signal(int sig) {
    if (atomic_load(&defer_depth) > 0) {
        /* A commit is renaming files: it acts on the signal when it is done. */
        atomic_store(&deferred_signal, sig);
        ccs_temp_install(sig);
        if (atomic_load(&defer_depth) > 0) return;
        /* The commit ended meanwhile and may not have seen the signal: act unless it took it. */
        int expected = sig;
        if (!atomic_compare_exchange_strong(&deferred_signal, &expected, 0)) return;
    }
    ccs_temp_clean_up_and_die(sig);
}

void ccs_temp_defer_signals(void) {
    atomic_fetch_add(&defer_depth, 1);
}

void ccs_temp_resume_signals(void) {
    if (atomic_fetch_sub(&defer_depth, 1) != 1) return;
    int sig = atomic_exchange(&deferred_signal, 0);
    if (sig != 0) ccs_temp_clean_up_and_die(sig);
}

void ccs_temp_die_of_signal(int sig) {
    if (atomic_load(&defer_depth) > 0) {
        atomic_store(&deferred_signal, sig);
        if (atomic_load(&defer_depth) > 0) return;
        int expected = sig;
        if (!atomic_compare_exchange_strong(&deferred_signal, &expected, 0)) return;
    }
    ccs_temp_clean_up_and_die(sig);
}

void ccs_temp_install_signal_handlers(void) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&handlers_installed, &expected, 1)) return;
    const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction current;
        /* A signal the process ignores (nohup) stays ignored. */
        if (sigaction(signals[i], NULL, &current) == 0 && current.sa_handler == SIG_IGN) continue;
        ccs_temp_install(signals[i]);
    }
}
