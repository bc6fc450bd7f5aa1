// no_init_allocator.h: a std::allocator that leaves new elements uninitialized.
//
// std::vector<T>(n) writes n zeros before the caller writes its own values, a pass over
// memory that is overwritten at once (a limb of a polynomial, the values of a noise
// bound). With this allocator vector<T, NoInitAllocator<T>>(n) allocates only; values
// given explicitly (vector(n, value), push_back(x)) are constructed as usual.
#pragma once

#include <memory>
#include <new>
#include <utility>

namespace cb::util {

template <class T>
struct NoInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = NoInitAllocator<U>;
  };
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

}  // namespace cb::util
