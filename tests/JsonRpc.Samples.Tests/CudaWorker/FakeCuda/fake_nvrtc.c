// A stand-in for libnvrtc.so.12: "compiles" CudaWorker's kernels to a PTX-like text naming their entries, and checks
// that it was given the worker's program and the option for the fake device's architecture (compute_86).
#include <stdlib.h>
#include <string.h>

typedef struct { char* ptx; } Program;

int nvrtcVersion(int* major, int* minor) { *major = 12; *minor = 4; return 0; }

int nvrtcCreateProgram(Program** program, const char* source, const char* name, int headers, const char* const* h, const char* const* i)
{
    if (!strstr(source, "__global__ void matmul") || strcmp(name, "cuda_worker_kernels.cu") != 0 || headers != 0) return 3;
    *program = calloc(1, sizeof(Program));
    return 0;
}

int nvrtcCompileProgram(Program* program, int count, const char* const* options)
{
    if (count != 1 || strcmp(options[0], "--gpu-architecture=compute_86") != 0) return 5;
    program->ptx = strdup(".version 8.4\n.target sm_86\n.entry vector_add\n.entry saxpy\n.entry matmul\n");
    return 0;
}

int nvrtcGetPTXSize(Program* program, size_t* size) { *size = strlen(program->ptx) + 1; return 0; }
int nvrtcGetPTX(Program* program, char* ptx) { memcpy(ptx, program->ptx, strlen(program->ptx) + 1); return 0; }
int nvrtcGetProgramLogSize(Program* program, size_t* size) { *size = 1; return 0; }
int nvrtcGetProgramLog(Program* program, char* log) { log[0] = 0; return 0; }

int nvrtcDestroyProgram(Program** program)
{
    if (*program) { free((*program)->ptx); free(*program); *program = NULL; }
    return 0;
}

const char* nvrtcGetErrorString(int result) { return "NVRTC_ERROR_FAKE"; }
