# Warnings and sanitizers, applied to every target ak builds. nvcc (CUDA sources) gets its own
# flags: it takes host-compiler warnings only through -Xcompiler, and the sanitizers do not apply
# to device code.
function(ak_target_defaults target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
    # Constexpr functions (ak's standard operators) are callable in kernels.
    $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall,-Wextra>)
  if(AK_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>
                                             $<$<COMPILE_LANGUAGE:CUDA>:--Werror=all-warnings>)
  endif()
  if(AK_SANITIZERS)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${AK_SANITIZERS} -fno-omit-frame-pointer
                                -fno-sanitize-recover=all>)
    if(AK_SANITIZERS_SKIP)
      target_compile_options(${target} PRIVATE
        $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize=${AK_SANITIZERS_SKIP}>)
    endif()
    target_link_options(${target} PRIVATE -fsanitize=${AK_SANITIZERS})
  endif()
endfunction()
