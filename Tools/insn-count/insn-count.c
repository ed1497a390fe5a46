/* insn-count — a QEMU TCG plugin that counts the guest instructions a program executes
 * (qemu-user, QEMU 7.2's plugin interface, version 1). Times under emulation say nothing about
 * the hardware; instruction counts are repeatable and comparable between two programs run the
 * same way. See run.sh for how the benchmark table is made.
 *
 *   qemu-aarch64 -L ROOT -plugin ./insn-count.so[,out=FILE][,sym=NAME]... PROGRAM ARGS
 *
 * Prints "insns N" (every instruction of the guest, the loader and libraries included) on
 * stderr or into FILE when the guest exits. Each `sym=NAME` adds a line "sym NAME N": the
 * instructions executed in functions whose symbol contains NAME (symbols of the main program,
 * as QEMU's ELF loader read them; a stripped program has none). `bysym=N` prints the N
 * symbols that executed the most instructions.
 *
 * Whole blocks are counted with one inline add per translated block (an early exit from a
 * block, a fault or a signal, is counted as if the block ran to its end); with sym= or bysym=
 * every instruction gets its own inline add to its symbol's counter.
 *
 * The declarations below are the few functions of QEMU's plugin interface used here, as QEMU
 * 7.2 exports them to plugins (QEMU_PLUGIN_VERSION 1); no QEMU header is needed to build:
 *   gcc -shared -fPIC -O2 -o insn-count.so insn-count.c
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- QEMU 7.2 plugin interface (subset) --- */
typedef uint64_t qemu_plugin_id_t;
typedef struct {
    const char *target_name;
    struct { int min; int cur; } version;
    bool system_emulation;
    union { struct { int smp_vcpus; int max_vcpus; } system; };
} qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op, void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn, enum qemu_plugin_op op, void *ptr,
                                                uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const char *qemu_plugin_insn_symbol(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* --- counters --- */
/* qemu-user runs one guest thread per host thread, but the kiosk-hud programs measured here are
 * single-threaded where it counts; the inline adds are not atomic (as in QEMU's own examples). */
static uint64_t total;
static FILE *out;

#define MAX_SYMS 64
static struct { const char *needle; uint64_t n; } syms[MAX_SYMS];
static int nsyms;

/* bysym: one counter per distinct symbol name (open addressing on the name's text). Each
 * counter is an allocation of its own, so growing the table never moves one that translated
 * code already adds to. */
static int bysym_top;
typedef struct { char *name; uint64_t *n; } symcount_t;
static symcount_t *table;
static size_t table_size, table_used;
static uint64_t unnamed;

static size_t slot(symcount_t *t, size_t size, const char *name)
{
    size_t h = 5381;
    for (const char *p = name; *p; p++) h = h * 33 + (unsigned char)*p;
    size_t j = h & (size - 1);
    while (t[j].name && strcmp(t[j].name, name)) j = (j + 1) & (size - 1);
    return j;
}

static uint64_t *symcounter(const char *name)
{
    if (!name) return &unnamed;
    if (table_used * 2 >= table_size) {
        size_t old = table_size;
        symcount_t *t = table;
        table_size = old ? old * 2 : 4096;
        table = calloc(table_size, sizeof *table);
        for (size_t i = 0; i < old; i++)
            if (t[i].name) table[slot(table, table_size, t[i].name)] = t[i];
        free(t);
    }
    size_t j = slot(table, table_size, name);
    if (!table[j].name) {
        table[j].name = strdup(name);
        table[j].n = calloc(1, sizeof(uint64_t));
        table_used++;
    }
    return table[j].n;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &total, n);
    if (!nsyms && !bysym_top) return;
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        const char *name = qemu_plugin_insn_symbol(insn);
        for (int s = 0; s < nsyms; s++)
            if (name && strstr(name, syms[s].needle))
                qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &syms[s].n, 1);
        if (bysym_top)
            qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, symcounter(name), 1);
    }
}

static int by_count(const void *a, const void *b)
{
    uint64_t x = *((const symcount_t *)a)->n, y = *((const symcount_t *)b)->n;
    return x < y ? 1 : x > y ? -1 : 0;
}

static void report(qemu_plugin_id_t id, void *p)
{
    (void)id; (void)p;
    fprintf(out, "insns %llu\n", (unsigned long long)total);
    for (int s = 0; s < nsyms; s++) fprintf(out, "sym %s %llu\n", syms[s].needle, (unsigned long long)syms[s].n);
    if (bysym_top && table) {
        symcount_t *list = malloc(table_used * sizeof *list);
        size_t k = 0;
        for (size_t i = 0; i < table_size; i++)
            if (table[i].name) list[k++] = table[i];
        qsort(list, k, sizeof *list, by_count);
        for (size_t i = 0; i < k && (int)i < bysym_top; i++)
            fprintf(out, "bysym %llu %s\n", (unsigned long long)*list[i].n, list[i].name);
        if (unnamed) fprintf(out, "bysym %llu (no symbol)\n", (unsigned long long)unnamed);
    }
    fflush(out);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                                               char **argv)
{
    (void)info;
    out = stderr;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strncmp(a, "out=", 4)) {
            out = fopen(a + 4, "w");
            if (!out) { perror(a + 4); return -1; }
        } else if (!strncmp(a, "sym=", 4) && nsyms < MAX_SYMS) {
            syms[nsyms++].needle = a + 4;
        } else if (!strncmp(a, "bysym=", 6)) {
            bysym_top = atoi(a + 6);
        } else {
            fprintf(stderr, "insn-count: unknown argument %s (out=FILE, sym=NAME, bysym=N)\n", a);
            return -1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, report, NULL);
    return 0;
}
