# Warnings and sanitizers, applied to every target ak builds.
function(ak_target_defaults target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion)
  if(AK_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(AK_SANITIZERS)
    target_compile_options(${target} PRIVATE -fsanitize=${AK_SANITIZERS} -fno-omit-frame-pointer
                                             -fno-sanitize-recover=all)
    target_link_options(${target} PRIVATE -fsanitize=${AK_SANITIZERS})
  endif()
endfunction()
