/* Internal helpers shared by the CCodecShims implementation files. */
#ifndef CCODECSHIMS_INTERNAL_H
#define CCODECSHIMS_INTERNAL_H

#include "CCodecShims.h"

void ccs_report_set_error(ccs_report *report, const char *message, int code);
void ccs_report_add_warning(ccs_report *report, const char *message);
void ccs_report_add_flags(ccs_report *report, int flags);

#endif
