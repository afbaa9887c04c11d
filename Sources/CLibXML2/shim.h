#ifndef RAON_CLIBXML2_SHIM_H
#define RAON_CLIBXML2_SHIM_H
/* Debian's libxml2 is built with ICU, and <libxml/encoding.h> includes the system's
 * <unicode/ucnv.h>; Foundation brings an ICU of its own (_FoundationICU) whose enums
 * differ, and a module that sees both does not compile. Raon needs nothing of ICU from
 * libxml2's headers: ucnv.h is kept out, and the two types encoding.h names from it are
 * declared as ICU declares them. */
#define UCNV_H 1
typedef struct UConverter UConverter;
typedef __CHAR16_TYPE__ UChar;
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#endif
