// Uses the installed ak: a device, an array on it, and a tuning lookup with an override.
#include <ak/ak.hpp>
#include <iostream>

int main() {
  ak::device dev;  // the built-in cpu backend
  std::vector<double> values{1.5, 2.5, 3.5, 4.5, 5.5, 6.5};
  ak::array<double> a(values, ak::shape{2, 3}, dev);
  if (a.to_vector() != values) {
    std::cerr << "round trip through ak::array failed\n";
    return 1;
  }
  auto grain = ak::tuning(ak::reduce_hook{}, dev, ak::dtype::float64).cpu_grain;
  ak::scoped_tuning s(ak::reduce_hook{}, {.cpu_grain = grain * 2});
  auto scoped = ak::tuning(ak::reduce_hook{}, dev, ak::dtype::float64).cpu_grain;
  std::cout << "ak " << ak::version_string() << " on " << dev.name() << ": array "
            << a.shape().to_string() << ", reduce cpu_grain " << grain << " (scoped: " << scoped
            << ")\n";
  return scoped == grain * 2 ? 0 : 1;
}
