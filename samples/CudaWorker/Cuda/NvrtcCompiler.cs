using System.Runtime.InteropServices;
using System.Text;

namespace CudaWorker.Cuda;

/// <summary>Compiles CUDA C to PTX with NVRTC.</summary>
internal static unsafe class NvrtcCompiler
{
    /// <summary>NVRTC's version as <c>"major.minor"</c>.</summary>
    public static string Version()
    {
        Nvrtc.Check(Nvrtc.nvrtcVersion(out var major, out var minor), nameof(Nvrtc.nvrtcVersion));
        return $"{major}.{minor}";
    }

    /// <summary>Compiles <paramref name="source"/> and returns its PTX, NUL-terminated as <c>cuModuleLoadData</c> wants it.</summary>
    /// <exception cref="NvrtcException">Compilation failed; the exception carries the compiler's log.</exception>
    public static byte[] CompileToPtx(string source, string programName, string[] options)
    {
        Nvrtc.Check(Nvrtc.nvrtcCreateProgram(out var program, source, programName, 0, null, null), nameof(Nvrtc.nvrtcCreateProgram));
        var optionPointers = new nint[options.Length];
        try
        {
            for (var i = 0; i < options.Length; i++)
            {
                optionPointers[i] = Marshal.StringToCoTaskMemUTF8(options[i]);
            }

            fixed (nint* pointers = optionPointers)
            {
                var compiled = Nvrtc.nvrtcCompileProgram(program, options.Length, (byte**)pointers);
                if (compiled != NvrtcResult.Success)
                {
                    throw new NvrtcException(compiled, nameof(Nvrtc.nvrtcCompileProgram), ReadLog(program));
                }
            }

            Nvrtc.Check(Nvrtc.nvrtcGetPTXSize(program, out var size), nameof(Nvrtc.nvrtcGetPTXSize));
            var ptx = new byte[checked((int)size)];
            fixed (byte* destination = ptx)
            {
                Nvrtc.Check(Nvrtc.nvrtcGetPTX(program, destination), nameof(Nvrtc.nvrtcGetPTX));
            }

            return ptx;
        }
        finally
        {
            foreach (var pointer in optionPointers)
            {
                Marshal.FreeCoTaskMem(pointer);
            }

            Nvrtc.nvrtcDestroyProgram(ref program);
        }
    }

    private static string? ReadLog(nint program)
    {
        if (Nvrtc.nvrtcGetProgramLogSize(program, out var size) != NvrtcResult.Success || size <= 1)
        {
            return null;
        }

        var log = new byte[checked((int)size)];
        fixed (byte* destination = log)
        {
            if (Nvrtc.nvrtcGetProgramLog(program, destination) != NvrtcResult.Success)
            {
                return null;
            }
        }

        return Encoding.UTF8.GetString(log, 0, log.Length - 1);
    }
}
