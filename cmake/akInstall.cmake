# install(): headers, libak, the ak tool, and a CMake package so that users write
#   find_package(ak REQUIRED)  target_link_libraries(app PRIVATE ak::ak)
include(CMakePackageConfigHelpers)

install(TARGETS ak EXPORT akTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/ak DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT akTargets NAMESPACE ak:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ak)

configure_package_config_file(cmake/akConfig.cmake.in ${PROJECT_BINARY_DIR}/akConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ak)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/akConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/akConfig.cmake ${PROJECT_BINARY_DIR}/akConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ak)
