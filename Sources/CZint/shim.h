#include <zint.h>

/* `struct zint_symbol` holds large C arrays (`encoded_data` is 200 x 144 bytes), which Swift
   imports as tuples; Swift code that reads or writes the struct makes the compiler's Sendable
   analysis of those tuples take tens of minutes, so Swift handles the symbol only by pointer,
   through these. */

/* A symbol of `symbology` with libzint's options, encoded from `length` bytes as they are
   (`DATA_MODE`); `*status` is ZBarcode_Encode's result. NULL when it cannot be allocated. */
static inline struct zint_symbol *czint_encode(int symbology, int option_1, int option_2, int option_3,
                                               const unsigned char *data, int length, int *status) {
    struct zint_symbol *symbol = ZBarcode_Create();
    if (!symbol) return 0;
    symbol->symbology = symbology;
    symbol->input_mode = DATA_MODE;
    symbol->option_1 = option_1;
    symbol->option_2 = option_2;
    symbol->option_3 = option_3;
    *status = ZBarcode_Encode(symbol, data, length);
    return symbol;
}

/* The symbol's rows and modules per row. */
static inline int czint_rows(const struct zint_symbol *symbol) { return symbol->rows; }
static inline int czint_width(const struct zint_symbol *symbol) { return symbol->width; }

/* Whether the module at `row`, `column` is dark (libzint's bit layout, least significant bit first). */
static inline int czint_module_is_set(const struct zint_symbol *symbol, int row, int column) {
    return (symbol->encoded_data[row][column >> 3] >> (column & 7)) & 1;
}

/* libzint's NUL-terminated error or warning text. */
static inline const char *czint_error_text(const struct zint_symbol *symbol) {
    return symbol->errtxt;
}
