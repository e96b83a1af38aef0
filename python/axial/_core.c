/* SPDX-License-Identifier: MIT */
/* axial._core: the C library's calls on Python buffers.
 *
 * A thin layer: every function takes C-contiguous buffers, an axial dtype
 * code and the shape, calls the library with the GIL released, and turns a
 * status into an exception carrying axial_last_error().  numpy's semantics
 * (axes, dtypes, out, keepdims) live in the Python package (axial/_ops.py);
 * no numpy header is needed here.  16-bit float data comes as uint16 views,
 * so ml_dtypes.bfloat16 arrays (which have no buffer export) pass too.
 *
 * Threads: nthreads <= 1 runs on the calling thread; nthreads = k > 1 runs on
 * a pool of k threads, made on first use and kept for the life of the
 * process (one pool per count, so that calls never wait on a pool being
 * destroyed).  The split depends on the shape alone: the bits never depend
 * on the count. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <axial.h>

/* The library's own (src/internal.h; this module links it statically). */
int axial__isa_thread(int state);

#define CORE_MAX_POOLS 1024
/* Calls on fewer input bytes run on the calling thread: the library would
 * not split them, and reaching the pool costs more than they take. */
#define CORE_INLINE_BYTES ((Py_ssize_t)64 << 10)

static axial_pool *core_pools[CORE_MAX_POOLS];
static pthread_mutex_t core_pools_lock = PTHREAD_MUTEX_INITIALIZER;

/* The executor of a pool of n threads (NULL for n <= 1); sets an exception
 * and returns -1 when the pool cannot be made. */
static int core_executor(Py_ssize_t n, Py_ssize_t bytes, const axial_executor **exec) {
    *exec = NULL;
    if (n <= 1 || bytes < CORE_INLINE_BYTES)
        return 0;
    if (n >= CORE_MAX_POOLS) {
        PyErr_Format(PyExc_ValueError, "threads=%zd: at most %d", n, CORE_MAX_POOLS - 1);
        return -1;
    }
    pthread_mutex_lock(&core_pools_lock);
    axial_status st = AXIAL_OK;
    if (core_pools[n] == NULL)
        st = axial_pool_create((size_t)n, &core_pools[n]);
    if (st == AXIAL_OK)
        *exec = axial_pool_executor(core_pools[n]);
    pthread_mutex_unlock(&core_pools_lock);
    if (st != AXIAL_OK) {
        PyErr_Format(PyExc_MemoryError, "a pool of %zd threads: %s", n, axial_last_error());
        return -1;
    }
    return 0;
}

/* A status other than AXIAL_OK as the exception numpy would raise. */
static PyObject *core_raise(axial_status st, const char *msg) {
    PyObject *type = PyExc_ValueError;
    if (st == AXIAL_E_DTYPE)
        type = PyExc_TypeError;
    else if (st == AXIAL_E_NOMEM)
        type = PyExc_MemoryError;
    PyErr_Format(type, "%s (%s)", msg, axial_status_name(st));
    return NULL;
}

/* A tuple or list of ints into dims[]; returns the count or -1. */
static Py_ssize_t core_ints(PyObject *seq, int64_t *dims, const char *what) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of ints");
    if (fast == NULL)
        return -1;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > AXIAL_MAX_RANK) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %zd values, at most %d", what, n, AXIAL_MAX_RANK);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        const long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        dims[i] = (int64_t)v;
    }
    Py_DECREF(fast);
    return n;
}

/* Buffers: x read-only, y writable; both C-contiguous. */
static int core_buffers(PyObject *xo, Py_buffer *x, PyObject *yo, Py_buffer *y) {
    if (PyObject_GetBuffer(xo, x, PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (yo != NULL && PyObject_GetBuffer(yo, y, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(x);
        return -1;
    }
    return 0;
}

static void core_release(Py_buffer *x, Py_buffer *y) {
    PyBuffer_Release(x);
    if (y != NULL)
        PyBuffer_Release(y);
}

/* One op call: the shape, both buffers and the executor. */
typedef struct {
    int64_t shape[AXIAL_MAX_RANK];
    size_t rank;
    Py_buffer x, y;
    const axial_executor *exec;
} core_call;

static int core_begin(core_call *c, PyObject *shape_o, PyObject *xo, PyObject *yo,
                      Py_ssize_t nthreads) {
    const Py_ssize_t rank = core_ints(shape_o, c->shape, "shape");
    if (rank < 0 || core_buffers(xo, &c->x, yo, &c->y) < 0)
        return -1;
    c->rank = (size_t)rank;
    if (core_executor(nthreads, c->x.len, &c->exec) < 0) {
        core_release(&c->x, &c->y);
        return -1;
    }
    return 0;
}

static PyObject *core_end(core_call *c, axial_status st) {
    core_release(&c->x, &c->y);
    if (st != AXIAL_OK)
        return core_raise(st, axial_last_error());
    Py_RETURN_NONE;
}

/* scan(op, dtype, x, y, shape, axis, flags, nthreads): CumSum (op 1) or
 * LogCumSumExp (op 2). */
static PyObject *core_scan(PyObject *self, PyObject *args) {
    (void)self;
    int op, dtype;
    PyObject *xo, *yo, *shape_o;
    long long axis;
    unsigned flags;
    Py_ssize_t nthreads;
    core_call c;
    if (!PyArg_ParseTuple(args, "iiOOOLIn", &op, &dtype, &xo, &yo, &shape_o, &axis, &flags,
                          &nthreads) ||
        core_begin(&c, shape_o, xo, yo, nthreads) < 0)
        return NULL;
    axial_status st;
    Py_BEGIN_ALLOW_THREADS
    st = (op == AXIAL_OP_CUMSUM ? axial_cumsum_ex : axial_logcumsumexp_ex)(
        (axial_dtype)dtype, c.x.buf, c.y.buf, c.rank, c.shape, axis, flags, c.exec);
    Py_END_ALLOW_THREADS
    return core_end(&c, st);
}

/* reduce(op, dtype, x, y, shape, axes, flags, nthreads): ReduceSum (op 3) or
 * ReduceLogSumExp (op 4). */
static PyObject *core_reduce(PyObject *self, PyObject *args) {
    (void)self;
    int op, dtype;
    PyObject *xo, *yo, *shape_o, *axes_o;
    unsigned flags;
    Py_ssize_t nthreads;
    int64_t axes[AXIAL_MAX_RANK];
    core_call c;
    if (!PyArg_ParseTuple(args, "iiOOOOIn", &op, &dtype, &xo, &yo, &shape_o, &axes_o, &flags,
                          &nthreads))
        return NULL;
    const Py_ssize_t naxes = core_ints(axes_o, axes, "axes");
    if (naxes < 0 || core_begin(&c, shape_o, xo, yo, nthreads) < 0)
        return NULL;
    axial_status st;
    Py_BEGIN_ALLOW_THREADS
    st = (op == AXIAL_OP_REDUCE_SUM ? axial_reduce_sum_ex : axial_reduce_logsumexp_ex)(
        (axial_dtype)dtype, c.x.buf, c.y.buf, c.rank, c.shape, axes, (size_t)naxes, flags,
        c.exec);
    Py_END_ALLOW_THREADS
    return core_end(&c, st);
}

/* roll(dtype, x, y, shape, shifts, axes, nthreads) */
static PyObject *core_roll(PyObject *self, PyObject *args) {
    (void)self;
    int dtype;
    PyObject *xo, *yo, *shape_o, *shift_o, *axes_o;
    Py_ssize_t nthreads;
    int64_t shift[AXIAL_MAX_RANK], axes[AXIAL_MAX_RANK];
    core_call c;
    if (!PyArg_ParseTuple(args, "iOOOOOn", &dtype, &xo, &yo, &shape_o, &shift_o, &axes_o,
                          &nthreads))
        return NULL;
    const Py_ssize_t nshift = core_ints(shift_o, shift, "shift");
    const Py_ssize_t naxes = nshift < 0 ? -1 : core_ints(axes_o, axes, "axes");
    if (naxes < 0 || core_begin(&c, shape_o, xo, yo, nthreads) < 0)
        return NULL;
    axial_status st;
    Py_BEGIN_ALLOW_THREADS
    st = axial_roll_ex((axial_dtype)dtype, c.x.buf, c.y.buf, c.rank, c.shape, shift,
                       (size_t)nshift, axes, (size_t)naxes, c.exec);
    Py_END_ALLOW_THREADS
    return core_end(&c, st);
}

/* ---- ISAs ---------------------------------------------------------------- */

static PyObject *core_isa(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return PyUnicode_FromString(axial_isa_name(axial_isa_active()));
}

static PyObject *core_isas(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    const unsigned avail = axial_isa_available();
    PyObject *list = PyList_New(0);
    for (int i = 0; list != NULL && i <= AXIAL_ISA_NEON; i++) {
        if (!(avail & (1u << i)))
            continue;
        PyObject *name = PyUnicode_FromString(axial_isa_name((axial_isa)i));
        if (name == NULL || PyList_Append(list, name) < 0)
            Py_CLEAR(list);
        Py_XDECREF(name);
    }
    return list;
}

/* isa_thread(name) makes the ISA `name` the calling thread's own (src/dispatch.c:
 * its calls and the tasks they hand out run on it) and returns the thread's
 * choice before, an int; isa_thread(that int) restores it (-1: the process's). */
static PyObject *core_isa_thread(PyObject *self, PyObject *arg) {
    (void)self;
    int state = -3;
    if (PyUnicode_Check(arg)) {
        const char *name = PyUnicode_AsUTF8(arg);
        if (name == NULL)
            return NULL;
        for (int i = 0; i <= AXIAL_ISA_NEON; i++)
            if (strcmp(name, axial_isa_name((axial_isa)i)) == 0)
                state = i;
        if (state < 0) {
            PyErr_Format(PyExc_ValueError,
                         "unknown ISA '%s': one of 'scalar', 'avx2', 'avx512', 'neon'", name);
            return NULL;
        }
        if (!((axial_isa_available() >> state) & 1u)) {
            PyErr_Format(PyExc_ValueError, "ISA '%s' is not available here (available mask 0x%x)",
                         name, axial_isa_available());
            return NULL;
        }
    } else if (PyLong_Check(arg)) {
        const long v = PyLong_AsLong(arg);
        if (v == -1 && PyErr_Occurred())
            return NULL;
        state = v >= -1 && v < 64 ? (int)v : -3;
    }
    const int was = axial__isa_thread(state);
    if (was == -2) {
        PyErr_Format(PyExc_ValueError, "isa_thread: %R is not an ISA or a state of this process",
                     arg);
        return NULL;
    }
    return PyLong_FromLong(was);
}

/* ---- shards -------------------------------------------------------------- */

/* The first five arguments of every shard call: (op, dtype, shape, axes, flags). */
typedef struct {
    int64_t shape[AXIAL_MAX_RANK], axes[AXIAL_MAX_RANK];
    axial_shards sh;
} core_shards;

static int core_shards_of(PyObject *desc, core_shards *c) {
    int op, dtype;
    PyObject *shape_o, *axes_o;
    unsigned flags;
    if (!PyArg_ParseTuple(desc, "iiOOI", &op, &dtype, &shape_o, &axes_o, &flags))
        return -1;
    const Py_ssize_t rank = core_ints(shape_o, c->shape, "shape");
    const Py_ssize_t naxes = rank < 0 ? -1 : core_ints(axes_o, c->axes, "axes");
    if (naxes < 0)
        return -1;
    c->sh = (axial_shards){(axial_op)op, (axial_dtype)dtype, (size_t)rank, c->shape, c->axes,
                           (size_t)naxes, flags};
    return 0;
}

/* shard_grid(desc) -> (axis, grid) */
static PyObject *core_shard_grid(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *desc;
    core_shards c;
    if (!PyArg_ParseTuple(args, "O!", &PyTuple_Type, &desc) || core_shards_of(desc, &c) < 0)
        return NULL;
    int64_t axis, grid;
    const axial_status st = axial_shard_grid(&c.sh, &axis, &grid);
    if (st != AXIAL_OK)
        return core_raise(st, axial_last_error());
    return Py_BuildValue("LL", (long long)axis, (long long)grid);
}

/* shard_summarize(desc, x, start, len) -> bytes */
static PyObject *core_shard_summarize(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *desc, *xo;
    long long start, len;
    core_shards c;
    if (!PyArg_ParseTuple(args, "O!OLL", &PyTuple_Type, &desc, &xo, &start, &len) ||
        core_shards_of(desc, &c) < 0)
        return NULL;
    size_t size;
    axial_status st = axial_shard_summary_size(&c.sh, start, len, &size);
    if (st != AXIAL_OK)
        return core_raise(st, axial_last_error());
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (out == NULL)
        return NULL;
    Py_buffer x;
    if (core_buffers(xo, &x, NULL, NULL) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    char *buf = PyBytes_AS_STRING(out);
    Py_BEGIN_ALLOW_THREADS
    st = axial_shard_summarize(&c.sh, x.buf, start, len, buf, size);
    Py_END_ALLOW_THREADS
    core_release(&x, NULL);
    if (st != AXIAL_OK) {
        Py_DECREF(out);
        return core_raise(st, axial_last_error());
    }
    return out;
}

/* shard_combine(a, b) -> bytes */
static PyObject *core_shard_combine(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer a, b;
    if (!PyArg_ParseTuple(args, "y*y*", &a, &b))
        return NULL;
    size_t size = 0;
    axial_status st = axial_shard_combine(a.buf, (size_t)a.len, b.buf, (size_t)b.len, NULL, 0,
                                          &size);
    PyObject *out = NULL;
    if (st == AXIAL_OK) {
        out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
        if (out != NULL)
            st = axial_shard_combine(a.buf, (size_t)a.len, b.buf, (size_t)b.len,
                                     PyBytes_AS_STRING(out), size, &size);
    }
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    if (st != AXIAL_OK) {
        Py_XDECREF(out);
        return core_raise(st, axial_last_error());
    }
    return out;
}

/* shard_scan(desc, x, y, start, len, carry or None, nthreads) */
static PyObject *core_shard_scan(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *desc, *xo, *yo, *carry_o;
    long long start, len;
    core_shards c;
    if (!PyArg_ParseTuple(args, "O!OOLLO", &PyTuple_Type, &desc, &xo, &yo, &start, &len,
                          &carry_o) ||
        core_shards_of(desc, &c) < 0)
        return NULL;
    Py_buffer carry = {0};
    if (carry_o != Py_None && PyObject_GetBuffer(carry_o, &carry, PyBUF_SIMPLE) < 0)
        return NULL;
    Py_buffer x, y;
    if (core_buffers(xo, &x, yo, &y) < 0) {
        if (carry_o != Py_None)
            PyBuffer_Release(&carry);
        return NULL;
    }
    axial_status st;
    Py_BEGIN_ALLOW_THREADS
    st = axial_shard_scan(&c.sh, x.buf, y.buf, start, len,
                          carry_o == Py_None ? NULL : carry.buf, (size_t)carry.len);
    Py_END_ALLOW_THREADS
    core_release(&x, &y);
    if (carry_o != Py_None)
        PyBuffer_Release(&carry);
    if (st != AXIAL_OK)
        return core_raise(st, axial_last_error());
    Py_RETURN_NONE;
}

/* shard_finish(desc, total, y) */
static PyObject *core_shard_finish(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *desc, *yo;
    Py_buffer total;
    core_shards c;
    if (!PyArg_ParseTuple(args, "O!y*O", &PyTuple_Type, &desc, &total, &yo))
        return NULL;
    if (core_shards_of(desc, &c) < 0) {
        PyBuffer_Release(&total);
        return NULL;
    }
    Py_buffer y;
    if (PyObject_GetBuffer(yo, &y, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&total);
        return NULL;
    }
    const axial_status st = axial_shard_finish(&c.sh, total.buf, (size_t)total.len, y.buf);
    PyBuffer_Release(&y);
    PyBuffer_Release(&total);
    if (st != AXIAL_OK)
        return core_raise(st, axial_last_error());
    Py_RETURN_NONE;
}

/* ---- streams ------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD axial_stream *s;
} core_stream;

static int core_stream_init(core_stream *self, PyObject *args, PyObject *kw) {
    (void)kw;
    int op, dtype;
    PyObject *shape_o;
    long long axis;
    unsigned flags;
    if (!PyArg_ParseTuple(args, "iiOLI", &op, &dtype, &shape_o, &axis, &flags))
        return -1;
    int64_t shape[AXIAL_MAX_RANK];
    const Py_ssize_t rank = core_ints(shape_o, shape, "shape");
    if (rank < 0)
        return -1;
    axial_stream_destroy(self->s);
    self->s = NULL;
    const axial_status st = axial_stream_create((axial_op)op, (axial_dtype)dtype, (size_t)rank,
                                                shape, axis, flags, &self->s);
    if (st != AXIAL_OK) {
        core_raise(st, axial_last_error());
        return -1;
    }
    return 0;
}

static void core_stream_dealloc(core_stream *self) {
    axial_stream_destroy(self->s);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int core_stream_ok(core_stream *self) {
    if (self->s != NULL)
        return 0;
    PyErr_SetString(PyExc_ValueError, "the stream was not created");
    return -1;
}

/* push(dtype, x, y, shape, nthreads); y None for a ReduceSum stream */
static PyObject *core_stream_push(core_stream *self, PyObject *args) {
    int dtype;
    PyObject *xo, *yo, *shape_o;
    Py_ssize_t nthreads;
    core_call c;
    c.y.obj = NULL; /* (released as nothing when y is None) */
    c.y.buf = NULL;
    if (core_stream_ok(self) < 0 ||
        !PyArg_ParseTuple(args, "iOOOn", &dtype, &xo, &yo, &shape_o, &nthreads) ||
        core_begin(&c, shape_o, xo, yo == Py_None ? NULL : yo, nthreads) < 0)
        return NULL;
    axial_status st;
    Py_BEGIN_ALLOW_THREADS
    st = axial_stream_push_ex(self->s, (axial_dtype)dtype, c.x.buf, c.y.buf, c.rank, c.shape,
                              c.exec);
    Py_END_ALLOW_THREADS
    return core_end(&c, st);
}

/* result(y): a ReduceSum stream's sums into y */
static PyObject *core_stream_result(core_stream *self, PyObject *args) {
    PyObject *yo;
    if (core_stream_ok(self) < 0 || !PyArg_ParseTuple(args, "O", &yo))
        return NULL;
    Py_buffer y;
    if (PyObject_GetBuffer(yo, &y, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0)
        return NULL;
    const axial_status st = axial_stream_result(self->s, y.buf);
    PyBuffer_Release(&y);
    if (st != AXIAL_OK)
        return core_raise(st, axial_last_error());
    Py_RETURN_NONE;
}

static PyObject *core_stream_export(core_stream *self, PyObject *args) {
    (void)args;
    if (core_stream_ok(self) < 0)
        return NULL;
    const size_t size = axial_stream_state_size(self->s);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (out == NULL)
        return NULL;
    const axial_status st = axial_stream_export(self->s, PyBytes_AS_STRING(out), size);
    if (st != AXIAL_OK) {
        Py_DECREF(out);
        return core_raise(st, axial_last_error());
    }
    return out;
}

static PyObject *core_stream_import(core_stream *self, PyObject *args) {
    Py_buffer b;
    if (core_stream_ok(self) < 0 || !PyArg_ParseTuple(args, "y*", &b))
        return NULL;
    const axial_status st = axial_stream_import(self->s, b.buf, (size_t)b.len);
    PyBuffer_Release(&b);
    if (st != AXIAL_OK)
        return core_raise(st, axial_last_error());
    Py_RETURN_NONE;
}

static PyObject *core_stream_length(core_stream *self, PyObject *args) {
    (void)args;
    if (core_stream_ok(self) < 0)
        return NULL;
    return PyLong_FromLongLong((long long)axial_stream_length(self->s));
}

static PyObject *core_stream_reset(core_stream *self, PyObject *args) {
    (void)args;
    if (core_stream_ok(self) < 0)
        return NULL;
    axial_stream_reset(self->s);
    Py_RETURN_NONE;
}

static PyMethodDef core_stream_methods[] = {
    {"push", (PyCFunction)core_stream_push, METH_VARARGS, "push(dtype, x, y, shape, nthreads)"},
    {"result", (PyCFunction)core_stream_result, METH_VARARGS, "result(y): a sum stream's sums"},
    {"export", (PyCFunction)core_stream_export, METH_NOARGS, "the state as bytes"},
    {"load", (PyCFunction)core_stream_import, METH_VARARGS, "load(bytes): the state from bytes"},
    {"length", (PyCFunction)core_stream_length, METH_NOARGS, "elements fed along the axis"},
    {"reset", (PyCFunction)core_stream_reset, METH_NOARGS, "back to length 0"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject core_stream_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "axial._core.Stream",
    .tp_basicsize = sizeof(core_stream),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Stream(op, dtype, shape, axis, flags): an axial_stream",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)core_stream_init,
    .tp_dealloc = (destructor)core_stream_dealloc,
    .tp_methods = core_stream_methods,
};

/* ---- the module ---------------------------------------------------------- */

static PyMethodDef core_methods[] = {
    {"scan", core_scan, METH_VARARGS, "scan(op, dtype, x, y, shape, axis, flags, nthreads)"},
    {"reduce", core_reduce, METH_VARARGS, "reduce(op, dtype, x, y, shape, axes, flags, nthreads)"},
    {"roll", core_roll, METH_VARARGS, "roll(dtype, x, y, shape, shifts, axes, nthreads)"},
    {"isa", core_isa, METH_NOARGS, "the active ISA's name"},
    {"isas", core_isas, METH_NOARGS, "the names of the ISAs this CPU runs"},
    {"isa_thread", core_isa_thread, METH_O, "isa_thread(name or state) -> the state before"},
    {"shard_grid", core_shard_grid, METH_VARARGS, "shard_grid(desc) -> (axis, grid)"},
    {"shard_summarize", core_shard_summarize, METH_VARARGS,
     "shard_summarize(desc, x, start, len) -> bytes"},
    {"shard_combine", core_shard_combine, METH_VARARGS, "shard_combine(a, b) -> bytes"},
    {"shard_scan", core_shard_scan, METH_VARARGS,
     "shard_scan(desc, x, y, start, len, carry)"},
    {"shard_finish", core_shard_finish, METH_VARARGS, "shard_finish(desc, total, y)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "axial._core", "axial's C library on Python buffers", -1,
    core_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&core_stream_type) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&core_stream_type);
    if (PyModule_AddObject(m, "Stream", (PyObject *)&core_stream_type) < 0 ||
        PyModule_AddIntConstant(m, "version", (long)axial_version()) < 0 ||
        PyModule_AddIntConstant(m, "header_version", AXIAL_VERSION) < 0 ||
        PyModule_AddIntConstant(m, "max_rank", AXIAL_MAX_RANK) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
