// A stand-in for libcuda.so.1 with the driver API functions CudaWorker calls: it runs the three kernels on the CPU,
// reading their arguments exactly as a real driver reads kernelParams, and checks that a context is current for every
// call that needs one. It lets a machine without a GPU exercise CudaWorker's P/Invoke marshalling, context handling
// and fallbacks. Switches (environment): FAKE_CUDA_NO_DEVICE makes cuInit answer CUDA_ERROR_NO_DEVICE;
// FAKE_CUDA_FAIL_LAUNCH=N makes every launch after the first N answer CUDA_ERROR_ILLEGAL_ADDRESS.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

enum { OK = 0, INVALID_VALUE = 1, NOT_INITIALIZED = 3, NO_DEVICE = 100, INVALID_DEVICE = 101, INVALID_PTX = 218,
       INVALID_CONTEXT = 201, INVALID_HANDLE = 400, NOT_FOUND = 500, ILLEGAL_ADDRESS = 700, OUT_OF_MEMORY = 2 };

#define CONTEXT ((void*)0x1000)
#define MODULE ((void*)0x2000)

static int initialized, depth, launches, failAfter = -1;

static float* host(void* parameter) { return (float*)(uintptr_t)*(CUdeviceptr*)parameter; }

CUresult cuInit(unsigned flags)
{
    if (flags != 0) return INVALID_VALUE;
    if (getenv("FAKE_CUDA_NO_DEVICE")) return NO_DEVICE;
    const char* fail = getenv("FAKE_CUDA_FAIL_LAUNCH");
    if (fail) failAfter = atoi(fail);
    initialized = 1;
    return OK;
}

CUresult cuDriverGetVersion(int* version) { *version = 12040; return OK; }
CUresult cuDeviceGetCount(int* count) { if (!initialized) return NOT_INITIALIZED; *count = 1; return OK; }
CUresult cuDeviceGet(CUdevice* device, int ordinal) { if (ordinal != 0) return INVALID_DEVICE; *device = 0; return OK; }
CUresult cuDeviceGetName(char* name, int length, CUdevice device) { snprintf(name, length, "Fake GPU %d", device); return OK; }
CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice device) { *bytes = (size_t)8 << 30; return OK; }

CUresult cuDeviceGetAttribute(int* value, int attribute, CUdevice device)
{
    switch (attribute)
    {
        case 6: *value = 65535; return OK;   // max grid Y
        case 16: *value = 46; return OK;     // multiprocessors
        case 75: *value = 8; return OK;      // compute capability major
        case 76: *value = 6; return OK;      // compute capability minor
        default: return INVALID_VALUE;
    }
}

CUresult cuDevicePrimaryCtxRetain(void** context, CUdevice device) { *context = CONTEXT; return OK; }
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) { return depth == 0 ? OK : INVALID_CONTEXT; }
CUresult cuCtxPushCurrent_v2(void* context) { if (context != CONTEXT) return INVALID_CONTEXT; depth++; return OK; }
CUresult cuCtxPopCurrent_v2(void** context) { if (depth <= 0) return INVALID_CONTEXT; depth--; if (context) *context = CONTEXT; return OK; }
CUresult cuCtxSynchronize(void) { return depth > 0 ? OK : INVALID_CONTEXT; }

CUresult cuModuleLoadData(void** module, const void* image)
{
    if (depth <= 0) return INVALID_CONTEXT;
    if (!strstr((const char*)image, ".entry matmul")) return INVALID_PTX;
    *module = MODULE;
    return OK;
}

CUresult cuModuleUnload(void* module) { return module == MODULE ? OK : INVALID_HANDLE; }

CUresult cuModuleGetFunction(void** function, void* module, const char* name)
{
    if (module != MODULE) return INVALID_HANDLE;
    if (!strcmp(name, "vector_add")) *function = (void*)1;
    else if (!strcmp(name, "saxpy")) *function = (void*)2;
    else if (!strcmp(name, "matmul")) *function = (void*)3;
    else return NOT_FOUND;
    return OK;
}

CUresult cuMemAlloc_v2(CUdeviceptr* pointer, size_t bytes)
{
    if (depth <= 0) return INVALID_CONTEXT;
    void* memory = malloc(bytes);
    if (!memory) return OUT_OF_MEMORY;
    *pointer = (CUdeviceptr)(uintptr_t)memory;
    return OK;
}

CUresult cuMemFree_v2(CUdeviceptr pointer) { if (depth <= 0) return INVALID_CONTEXT; free((void*)(uintptr_t)pointer); return OK; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr to, const void* from, size_t bytes) { if (depth <= 0) return INVALID_CONTEXT; memcpy((void*)(uintptr_t)to, from, bytes); return OK; }
CUresult cuMemcpyDtoH_v2(void* to, CUdeviceptr from, size_t bytes) { if (depth <= 0) return INVALID_CONTEXT; memcpy(to, (void*)(uintptr_t)from, bytes); return OK; }

CUresult cuLaunchKernel(void* function, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX, unsigned blockY,
                        unsigned blockZ, unsigned sharedBytes, void* stream, void** p, void** extra)
{
    if (depth <= 0) return INVALID_CONTEXT;
    if (extra || gridZ != 1 || blockZ != 1 || sharedBytes != 0 || stream) return INVALID_VALUE;
    if (failAfter >= 0 && launches++ >= failAfter) return ILLEGAL_ADDRESS;
    if (function == (void*)1 || function == (void*)2)
    {
        float* x = host(p[0]); float* y = host(p[1]); float* out = host(p[2]);
        long long n = *(long long*)p[3];
        float alpha = function == (void*)2 ? *(float*)p[4] : 1.0f;
        long long covered = n < 65535LL * 256 ? n : 65535LL * 256; // the grid strides over the rest
        if (blockX != 256 || blockY != 1 || gridY != 1 || (long long)gridX * blockX < covered) return INVALID_VALUE;
        for (long long i = 0; i < n; i++) out[i] = function == (void*)1 ? x[i] + y[i] : alpha * x[i] + y[i];
        return OK;
    }

    if (function == (void*)3)
    {
        float* a = host(p[0]); float* b = host(p[1]); float* c = host(p[2]);
        int m = *(int*)p[3], k = *(int*)p[4], n = *(int*)p[5];
        if (blockX != 16 || blockY != 16 || (long long)gridX * 16 < n || gridY == 0 || gridY > 65535) return INVALID_VALUE;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++)
            {
                float sum = 0;
                for (int q = 0; q < k; q++) sum += a[(size_t)i * k + q] * b[(size_t)q * n + j];
                c[(size_t)i * n + j] = sum;
            }
        return OK;
    }

    return INVALID_HANDLE;
}

CUresult cuGetErrorName(CUresult error, const char** name)
{
    static char buffer[48];
    snprintf(buffer, sizeof buffer, "CUDA_ERROR_FAKE_%d", error);
    *name = buffer;
    return OK;
}

CUresult cuGetErrorString(CUresult error, const char** text) { *text = "reported by the fake driver"; return OK; }
