/* ccs_report: collects one fatal error and a bounded list of warnings. */
#include <stdlib.h>
#include <string.h>
#include "shims_internal.h"

#define CCS_MAX_WARNINGS 16
#define CCS_MSG_LEN 256

struct ccs_report {
    char error[CCS_MSG_LEN];
    int error_code;
    int warning_count;
    int total_warnings;
    int flags;
    char warnings[CCS_MAX_WARNINGS][CCS_MSG_LEN];
};

ccs_report *ccs_report_create(void) { return calloc(1, sizeof(ccs_report)); }

void ccs_report_destroy(ccs_report *report) { free(report); }

static void copy_message(char *dst, const char *src) {
    if (src == NULL) src = "(no message)";
    strncpy(dst, src, CCS_MSG_LEN - 1);
    dst[CCS_MSG_LEN - 1] = '\0';
}

void ccs_report_set_error(ccs_report *report, const char *message, int code) {
    if (report == NULL) return;
    /* Keep the first error: later ones are usually consequences of it. */
    if (report->error[0] != '\0') return;
    copy_message(report->error, message);
    report->error_code = code;
}

void ccs_report_add_warning(ccs_report *report, const char *message) {
    if (report == NULL) return;
    report->total_warnings++;
    /* Corrupt data tends to repeat the same warning thousands of times: store it once. */
    for (int i = 0; i < report->warning_count; i++) {
        if (strncmp(report->warnings[i], message ? message : "", CCS_MSG_LEN - 1) == 0) return;
    }
    if (report->warning_count >= CCS_MAX_WARNINGS) return;
    copy_message(report->warnings[report->warning_count], message);
    report->warning_count++;
}

void ccs_report_add_flags(ccs_report *report, int flags) {
    if (report != NULL) report->flags |= flags;
}

const char *ccs_report_error(const ccs_report *report) { return report ? report->error : ""; }
int ccs_report_error_code(const ccs_report *report) { return report ? report->error_code : 0; }
int ccs_report_warning_count(const ccs_report *report) { return report ? report->warning_count : 0; }
int ccs_report_total_warnings(const ccs_report *report) { return report ? report->total_warnings : 0; }
int ccs_report_flags(const ccs_report *report) { return report ? report->flags : 0; }

const char *ccs_report_warning(const ccs_report *report, int index) {
    if (report == NULL || index < 0 || index >= report->warning_count) return "";
    return report->warnings[index];
}

void ccs_free(void *pointer) { free(pointer); }
